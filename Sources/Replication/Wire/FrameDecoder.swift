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
    /// A large frame whose header is in: its body goes straight into its own payload
    /// array as it arrives (one copy), instead of through `buffer` (two).
    private var large: (type: MessageType, payload: [UInt8], size: Int)?
    /// Start of the unread bytes in `buffer`; consumed bytes are dropped lazily.
    private var readIndex = 0
    private var failure: WireError?

    public init(maximumFrameSize: Int = WireLimits.defaultMaximumFrameSize) {
        precondition(maximumFrameSize >= 1, "a frame body holds at least its type byte")
        self.maximumFrameSize = maximumFrameSize
    }

    /// Frames with a body at least this long are assembled in their own array.
    static let largeFrameSize = 64 << 10

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int {
        buffer.count - readIndex + (large.map { WireLimits.frameHeaderSize + 1 + $0.payload.count } ?? 0)
    }

    /// Appends received bytes.
    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        feed(Array(bytes))
    }

    /// Appends received bytes; when nothing is buffered, takes the array as it is (a read's
    /// own buffer is then not copied again).
    public mutating func feed(_ bytes: [UInt8]) {
        let rest = fillLarge(bytes[...])
        if rest.isEmpty { return }
        if bufferedByteCount == 0 && failure == nil && rest.count == bytes.count {
            buffer = bytes
            readIndex = 0
            return
        }
        compactIfWorthIt()
        buffer.append(contentsOf: rest)
    }

    /// Appends received bytes from a raw buffer (what a socket read fills).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        feed(Array(bytes))
    }

    /// Moves what the large frame in progress still lacks into its payload; returns the rest.
    private mutating func fillLarge(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard var frame = large, failure == nil else { return bytes }
        large = nil  // keeps `frame.payload` uniquely referenced while it grows
        let take = min(frame.size - frame.payload.count, bytes.count)
        frame.payload.append(contentsOf: bytes.prefix(take))
        large = frame
        return bytes.dropFirst(take)
    }

    /// The next complete frame, or `.needMoreData`.
    public mutating func next() throws(WireError) -> Output {
        if let failure { throw failure }
        if let frame = large {
            guard frame.payload.count == frame.size else { return .needMoreData }
            large = nil
            return .frame(Frame(type: frame.type, payload: frame.payload))
        }
        guard buffer.count - readIndex >= WireLimits.frameHeaderSize else { return .needMoreData }
        var length = 0
        for offset in 0..<WireLimits.frameHeaderSize {
            length = length << 8 | Int(buffer[readIndex + offset])
        }
        if length == 0 { return try fail(.emptyFrame) }
        if length > maximumFrameSize {
            return try fail(.frameTooLarge(length: length, maximum: maximumFrameSize))
        }
        let bodyStart = readIndex + WireLimits.frameHeaderSize
        guard buffer.count - readIndex >= WireLimits.frameHeaderSize + length else {
            if length >= Self.largeFrameSize && buffer.count > bodyStart {
                var payload: [UInt8] = []
                payload.reserveCapacity(length - 1)
                payload.append(contentsOf: buffer[(bodyStart + 1)...])
                large = (MessageType(rawValue: buffer[bodyStart]), payload, length - 1)
                readIndex = buffer.count
            }
            return .needMoreData
        }
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
        large = nil
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
