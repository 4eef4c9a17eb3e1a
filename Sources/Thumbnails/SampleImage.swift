import CVips

/// Images synthesised with libvips, for the tests and the benchmark: they need real files of
/// each format, of chosen sizes and EXIF orientations, without checking in binaries.
///
/// The pixels are Gaussian noise, the hardest content for JPEG, so a 4000×3000 sample is at
/// least as large as a camera's photo of that size and a benchmark on it is not flattered.
public enum SampleImage {
    /// The encodings a sample is made in.
    public enum Format: String, Sendable, CaseIterable {
        case jpeg, png, webp, tiff, heic
    }

    /// A `width`×`height` RGB image encoded as `format`. A JPEG given an `orientation`
    /// (EXIF 1–8) says so in its metadata: 6 means "rotate 90° clockwise to show".
    public static func make(
        width: Int, height: Int, format: Format = .jpeg, orientation: Int? = nil, sigma: Double = 30
    ) throws(ThumbnailError) -> [UInt8] {
        if let failure = VipsRuntime.startFailure { throw .unavailable(reason: failure) }
        var bands: [UnsafeMutablePointer<VipsImage>] = []
        defer { bands.forEach(peershare_vips_release) }
        for _ in 0..<3 {
            var noise: UnsafeMutablePointer<VipsImage>?
            guard peershare_vips_noise(&noise, Int32(width), Int32(height), sigma) == 0, let noise else {
                throw failure()
            }
            defer { peershare_vips_release(noise) }
            var band: UnsafeMutablePointer<VipsImage>?
            guard peershare_vips_cast_uchar(noise, &band) == 0, let band else { throw failure() }
            bands.append(band)
        }
        var rgb: UnsafeMutablePointer<VipsImage>?
        guard peershare_vips_bandjoin3(bands[0], bands[1], bands[2], &rgb) == 0, let rgb else {
            throw failure()
        }
        defer { peershare_vips_release(rgb) }
        if let orientation { vips_image_set_int(rgb, "orientation", Int32(orientation)) }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status: Int32
        switch format {
        case .jpeg: status = peershare_vips_jpeg_keeping_metadata(rgb, &buffer, &length)
        case .png: status = peershare_vips_png(rgb, &buffer, &length)
        case .webp: status = peershare_vips_webp(rgb, &buffer, &length)
        case .tiff: status = peershare_vips_tiff(rgb, &buffer, &length)
        case .heic: status = peershare_vips_heif(rgb, &buffer, &length)
        }
        guard status == 0, let buffer else { throw failure() }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// Decodes the JPEG in `path` at 1/8 scale and nothing more: the least a thumbnail of it
    /// costs with libjpeg (the benchmark's floor). Returns the mean pixel value.
    public static func decodeAtEighthScale(_ path: String) throws(ThumbnailError) -> Double {
        if let failure = VipsRuntime.startFailure { throw .unavailable(reason: failure) }
        let mean = peershare_vips_jpeg_decode_eighth(path)
        guard mean >= 0 else { throw failure() }
        return mean
    }

    /// Width and height of encoded image bytes (read from the header), nil when libvips
    /// cannot decode them.
    public static func dimensions(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard VipsRuntime.startFailure == nil else { return nil }
        let image = bytes.withUnsafeBytes { peershare_vips_decode($0.baseAddress, $0.count) }
        guard let image else {
            _ = VipsRuntime.takeError()
            return nil
        }
        defer { peershare_vips_release(image) }
        return (Int(vips_image_get_width(image)), Int(vips_image_get_height(image)))
    }

    private static func failure() -> ThumbnailError {
        .unavailable(reason: "making a sample image failed: " + VipsRuntime.takeError())
    }
}
