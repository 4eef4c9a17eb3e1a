// `peershare-thumbnailer FILE...`: writes a 320 px JPEG thumbnail of each FILE to standard
// output, for `peershared`, which runs it for each batch of photos added without a
// thumbnail (`ThumbnailProcess`). Image decoders (libjpeg, libpng, libwebp,
// libtiff, libheif through libvips) run here and not in the daemon: a crash, a hang or a
// memory blow-up on a hostile file ends this process, under the limits below, and costs one
// batch (the daemon drops the photo it was decoding and goes on with a new process).
import Glibc
import Support
import Thumbnails

/// CPU seconds and address space one batch may take: a 12-megapixel JPEG needs about
/// 0.1 s and 100 MiB; a decompression bomb stops here instead.
func limit(_ resource: __rlimit_resource, _ value: rlim_t) {
    var bounds = rlimit(rlim_cur: value, rlim_max: value)
    _ = setrlimit(__rlimit_resource_t(resource.rawValue), &bounds)
}

/// A line on standard error.
func complain(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
limit(RLIMIT_CPU, 60)
limit(RLIMIT_AS, 4 << 30)

/// Writes all of `bytes` to standard output, or exits.
func emit(_ bytes: [UInt8]) {
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        guard count > 0 else { exit(74) }
        written += count
    }
}

let files = Array(CommandLine.arguments.dropFirst())
guard !files.isEmpty else {
    complain("usage: peershare-thumbnailer FILE...")
    exit(ThumbnailerExit.usage)
}
let maker: ThumbnailMaker
do {
    maker = try ThumbnailMaker()
} catch {
    complain("\(error)")
    exit(ThumbnailerExit.unavailable)
}
// One answer per file, in order: `ok LENGTH` and the JPEG's bytes, or `error STATUS REASON`
// (STATUS one of ThumbnailerExit's) on one line.
for file in files {
    do {
        let bytes = try maker.thumbnail(ofFile: file)
        emit(Array("ok \(bytes.count)\n".utf8) + bytes)
    } catch {
        let status: Int32
        switch error {
        case .notAnImage: status = ThumbnailerExit.notAnImage
        case .unreadable: status = ThumbnailerExit.unreadable
        case .invalidSide: status = ThumbnailerExit.usage
        case .unavailable: status = ThumbnailerExit.unavailable
        }
        let reason = "\(error)".map { $0.isNewline ? " " : $0 }
        emit(Array("error \(status) \(String(reason))\n".utf8))
    }
}
exit(0)
