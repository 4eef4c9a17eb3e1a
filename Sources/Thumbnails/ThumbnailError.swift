/// Why no thumbnail came out of a file. Each case says what failed, on which file, and what
/// it means for the photo, so the daemon can log it as it is and decide per case.
public enum ThumbnailError: Error, Equatable, CustomStringConvertible {
    /// The file is not an image of a format thumbnails are made of, or its data cannot be
    /// decoded (a damaged image fails as it is decoded). The photo stays, without a preview.
    case notAnImage(path: String, reason: String)
    /// The file could not be opened: missing, or not readable by the daemon.
    case unreadable(path: String, reason: String)
    /// A longest side outside `ThumbnailMaker.sides`.
    case invalidSide(Int)
    /// libvips failed to start in this process; no thumbnail can be made until a restart.
    case unavailable(reason: String)

    public var description: String {
        switch self {
        case .notAnImage(let path, let reason):
            return "\(path) is not an image a thumbnail can be made of "
                + "(\(ThumbnailMaker.formats)): \(reason); the photo is kept without a preview"
        case .unreadable(let path, let reason):
            return "cannot read \(path) to make its thumbnail: \(reason)"
        case .invalidSide(let side):
            return "a thumbnail's longest side must be \(ThumbnailMaker.sides.lowerBound)..."
                + "\(ThumbnailMaker.sides.upperBound) pixels, not \(side)"
        case .unavailable(let reason):
            return "the image library (libvips) could not start: \(reason); "
                + "check that libvips42 is installed, then restart peershared"
        }
    }
}
