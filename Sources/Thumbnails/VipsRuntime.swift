import CVips
import Glibc

/// libvips as this process uses it, started once: one worker thread per operation, no
/// operation cache, and only the loaders of the formats thumbnails are made of.
///
/// The defaults suit a batch image server, not a daemon that makes a thumbnail now and then:
/// libvips would start a thread per core for every image and keep up to 100 recent
/// operations (with their decoded pixels) in a cache. And it ships loaders for PDF, SVG,
/// ImageMagick, FITS, Matlab and more: each is a large parser of untrusted input, so
/// everything but the formats of SPEC §14 is blocked (a PDF is then "not an image").
enum VipsRuntime {
    /// The operation classes left open: each covers its file, buffer and source loaders.
    static let loaders = [
        "VipsForeignLoadJpeg", "VipsForeignLoadPng", "VipsForeignLoadWebp", "VipsForeignLoadTiff",
        "VipsForeignLoadHeif",
    ]

    /// Whether `name`, the class `vips_foreign_find_load` found for a file (such as
    /// `VipsForeignLoadJpegFile`), is one of `loaders`.
    static func isOpen(loader name: String) -> Bool {
        loaders.contains { name.hasPrefix($0) }
    }

    /// Nil once libvips runs; otherwise why it could not start. Swift runs the initializer
    /// of a static once, on first use, whichever thread gets there first.
    static let startFailure: String? = start()

    private static func start() -> String? {
        // vips_init loads every plugin module of libvips' module directory: on Debian the
        // ImageMagick, poppler (PDF), OpenSlide and JPEG XL loaders besides HEIF, large parsers
        // of untrusted input that are blocked below anyway, and about 20 ms and 6 MiB of every
        // thumbnailer's start. Hidden from vips_init (its libdir comes from VIPSHOME), only the
        // HEIF module is loaded, by hand. Where the directory cannot be found, libvips loads
        // its modules as usual.
        let heif = pluginDirectory().map { $0 + "/vips-heif.so" }
        if heif != nil { setenv("VIPSHOME", "/dev/null/no-vips-modules", 1) }
        if peershare_vips_init() != 0 { return takeError() }
        if let heif, access(heif, R_OK) == 0 { _ = peershare_vips_load_module(heif) }
        peershare_vips_quiet()
        vips_concurrency_set(1)
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        vips_block_untrusted_set(1)
        vips_operation_block_set("VipsForeignLoad", 1)
        for loader in loaders { vips_operation_block_set(loader, 0) }
        return nil
    }

    /// `vips-modules-MAJOR.MINOR` beside the libvips this process loaded (found in
    /// /proc/self/maps), which is where libvips looks for its modules; nil if it is not
    /// there.
    static func pluginDirectory() -> String? {
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk.prefix(count)
        }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let start = line.firstIndex(of: "/"), line[start...].contains("/libvips.so") else {
                continue
            }
            let library = line[start...]
            guard let slash = library.lastIndex(of: "/") else { continue }
            let directory = "\(library[..<slash])/vips-modules-\(vips_version(0)).\(vips_version(1))"
            return access(directory, R_OK | X_OK) == 0 ? directory : nil
        }
        return nil
    }

    /// libvips' error text so far (it accumulates, process-wide), cleared for the next call.
    static func takeError() -> String {
        let text = vips_error_buffer().map { String(cString: $0) } ?? ""
        vips_error_clear()
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }
        return lines.isEmpty ? "libvips gave no reason" : lines.joined(separator: "; ")
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
