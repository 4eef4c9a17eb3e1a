/// Size bounds of the wire protocol, in one place so that both ends and the docs agree.
///
/// Every length read off the wire is checked against a bound before anything is allocated
/// for it, so a peer (honest but buggy, or hostile) cannot make us reserve gigabytes.
public enum WireLimits {
    /// Largest frame body (message type byte + payload) accepted by default: 16 MiB.
    /// Photo data travels in chunks well below this.
    public static let defaultMaximumFrameSize = 16 * 1024 * 1024
    /// The smallest largest-frame a peer may ask for (`max_frame_bytes` cannot be set lower):
    /// one change of the largest kind and a photo-data chunk must fit.
    public static let minimumFrameSize = 64 * 1024
    /// Bytes before the body of every frame: a 32-bit big-endian length.
    public static let frameHeaderSize = 4
}
