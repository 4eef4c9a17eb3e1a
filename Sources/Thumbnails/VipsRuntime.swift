import CVips

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
        if peershare_vips_init() != 0 { return takeError() }
        peershare_vips_quiet()
        vips_concurrency_set(1)
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        vips_block_untrusted_set(1)
        vips_operation_block_set("VipsForeignLoad", 1)
        for loader in loaders { vips_operation_block_set(loader, 0) }
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
