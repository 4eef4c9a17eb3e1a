import CVips
import Glibc

/// Makes the small JPEG preview of a photo file: what the daemon stores as the photo's
/// `thumbnail` when the photo was added without one (SPEC §14), so every device and the
/// gallery show it without fetching the full data.
///
/// libvips shrinks while it decodes where the format allows (a camera's JPEG is decoded at
/// 1/8 scale straight away), so a 12-megapixel photo costs a few megabytes of memory, not 36. The
/// result is turned upright by the file's EXIF orientation, never enlarged, and carries no
/// metadata (no location, camera or colour profile). libvips is thread-safe once started;
/// the daemon calls it from one worker thread anyway.
public struct ThumbnailMaker: Sendable {
    /// The formats a thumbnail is made of, as messages name them.
    public static let formats = "JPEG, PNG, WebP, TIFF or HEIC"
    /// The longest sides `thumbnail(ofFile:longestSide:)` accepts.
    public static let sides = 16...4096
    /// The preview's longest side unless told otherwise.
    public static let defaultLongestSide = 320
    /// JPEG quality of the previews: small files, no visible blocks at this size.
    public let quality: Int

    /// Starts libvips in this process (once; later makers share it).
    public init(quality: Int = 80) throws(ThumbnailError) {
        if let failure = VipsRuntime.startFailure { throw .unavailable(reason: failure) }
        self.quality = quality
    }

    /// JPEG bytes of the image in `path`, fitting a `longestSide` square.
    public func thumbnail(
        ofFile path: String, longestSide: Int = ThumbnailMaker.defaultLongestSide
    ) throws(ThumbnailError) -> [UInt8] {
        guard Self.sides.contains(longestSide) else { throw .invalidSide(longestSide) }
        if access(path, R_OK) != 0 {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        // Sniffs the content (not the name: the daemon's data files are named by hash).
        // The loaders of other formats are blocked anyway; this gives the plain reason.
        guard let loader = vips_foreign_find_load(path),
            VipsRuntime.isOpen(loader: String(cString: loader))
        else {
            _ = VipsRuntime.takeError()
            throw .notAnImage(path: path, reason: "its content is none of these formats")
        }
        var image: UnsafeMutablePointer<VipsImage>?
        // A plain JPEG (8-bit sRGB or grey, no colour profile: what cameras write) is decoded
        // at 1/8 where that still covers the preview; the rest goes through vips_thumbnail.
        var status: Int32 = 1
        if String(cString: loader).hasPrefix("VipsForeignLoadJpeg") {
            status = peershare_vips_jpeg_thumbnail(path, &image, Int32(longestSide))
        }
        if status == 1 { status = peershare_vips_thumbnail(path, &image, Int32(longestSide)) }
        guard status == 0, let image else {
            throw .notAnImage(path: path, reason: VipsRuntime.takeError())
        }
        defer { peershare_vips_release(image) }
        // Pixels are decoded as the JPEG is written (or, for a plain JPEG, before): a damaged
        // image fails here.
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard peershare_vips_jpeg(image, &buffer, &length, Int32(quality)) == 0, let buffer else {
            throw .notAnImage(path: path, reason: VipsRuntime.takeError())
        }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }
}
