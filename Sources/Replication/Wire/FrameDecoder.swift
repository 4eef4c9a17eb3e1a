/// Turns a byte stream into frames, whatever pieces the bytes arrive in.
///
/// Feed it what the connection delivers; ask it for frames until it says `.needMoreData`.
/// A frame's length is checked against the limit as soon as its 4-byte header is in, so an
/// oversized frame is refused before any of its body is awaited or allocated. After an
/// error the decoder stays failed: the stream cannot be resynchronised and must be closed.
public struct FrameDecoder: Sendable {
    /// What `next()` found.
    public enum Output: Equatable, Sendable {
        case frame(Frame)
        case needMoreData
    }

    public let maximumFrameSize: Int
    private var buffer: [UInt8] = []
    /// Start of the unread bytes in `buffer`; consumed bytes are dropped lazily.
    private var readIndex = 0
    private var failure: WireError?

    public init(maximumFrameSize: Int = WireLimits.defaultMaximumFrameSize) {
        precondition(maximumFrameSize >= 1, "a frame body holds at least its type byte")
        self.maximumFrameSize = maximumFrameSize
    }

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Appends received bytes.
    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes; when nothing is buffered, takes the array as it is (a bulk
    /// transfer's reads are then never copied into the decoder).
    public mutating func feed(_ bytes: [UInt8]) {
        if bufferedByteCount == 0 && failure == nil {
            buffer = bytes
            readIndex = 0
            return
        }
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes from a raw buffer (what a socket read fills).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or `.needMoreData`.
    public mutating func next() throws(WireError) -> Output {
        if let failure { throw failure }
        guard bufferedByteCount >= WireLimits.frameHeaderSize else { return .needMoreData }
        var length = 0
        for offset in 0..<WireLimits.frameHeaderSize {
            length = length << 8 | Int(buffer[readIndex + offset])
        }
        if length == 0 { return try fail(.emptyFrame) }
        if length > maximumFrameSize {
            return try fail(.frameTooLarge(length: length, maximum: maximumFrameSize))
        }
        guard bufferedByteCount >= WireLimits.frameHeaderSize + length else { return .needMoreData }
        let bodyStart = readIndex + WireLimits.frameHeaderSize
        let frame = Frame(
            type: MessageType(rawValue: buffer[bodyStart]),
            payload: Array(buffer[(bodyStart + 1)..<(bodyStart + length)]))
        readIndex = bodyStart + length
        return .frame(frame)
    }

    /// Checks that the stream ended between frames; call when the connection closes.
    public func finish() throws(WireError) {
        if let failure { throw failure }
        if bufferedByteCount > 0 { throw .endedMidFrame(bufferedBytes: bufferedByteCount) }
    }

    private mutating func fail(_ error: WireError) throws(WireError) -> Output {
        failure = error
        buffer = []
        readIndex = 0
        throw error
    }

    /// Drops consumed bytes once they are the larger part of the buffer, keeping appends
    /// amortised O(1) without copying on every frame.
    private mutating func compactIfWorthIt() {
        guard readIndex > 0 else { return }
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            readIndex = 0
        } else if readIndex >= buffer.count / 2 {
            buffer.removeFirst(readIndex)
            readIndex = 0
        }
    }
}
