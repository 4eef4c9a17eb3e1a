// `peershare-thumbnailer FILE [SIDE]`: writes a JPEG thumbnail of FILE (longest side SIDE,
// default 320) to standard output, for `peershared`, which runs it for each photo added
// without a thumbnail (`ThumbnailProcess`). Image decoders (libjpeg, libpng, libwebp,
// libtiff, libheif through libvips) run here and not in the daemon: a crash, a hang or a
// memory blow-up on a hostile file ends this process, under the limits below, and costs one
// thumbnail. Exit statuses: `ThumbnailerExit` (Support); the reason goes to standard error.
import Glibc
import Support
import Thumbnails

/// CPU seconds and address space one thumbnail may take: a 12-megapixel JPEG needs about
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

let arguments = CommandLine.arguments.dropFirst()
guard (1...2).contains(arguments.count), let file = arguments.first,
    let side = arguments.count == 2 ? Int(arguments.last!) : ThumbnailMaker.defaultLongestSide
else {
    complain("usage: peershare-thumbnailer FILE [LONGEST_SIDE]")
    exit(ThumbnailerExit.usage)
}
do {
    let bytes = try ThumbnailMaker().thumbnail(ofFile: file, longestSide: side)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        guard count > 0 else { exit(74) }
        written += count
    }
    exit(0)
} catch {
    complain("\(error)")
    switch error {
    case .notAnImage: exit(ThumbnailerExit.notAnImage)
    case .unreadable: exit(ThumbnailerExit.unreadable)
    case .invalidSide: exit(ThumbnailerExit.usage)
    case .unavailable: exit(ThumbnailerExit.unavailable)
    }
}
