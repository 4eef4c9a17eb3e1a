/// The one-byte type that says how a frame's payload is to be read.
///
/// A struct rather than a closed enum: each message family declares its own constants in an
/// extension, and a frame of a type this build does not know still decodes as a frame, so
/// the session decides what to do with it.
public struct MessageType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The version handshake, first message in each direction.
    public static let hello = MessageType(rawValue: 0x01)

    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// One unit of the wire protocol: a message type and its payload.
///
/// On the wire: a 32-bit big-endian body length, then the body, which is the type byte
/// followed by the payload. Framing lets the receiver bound every read before it allocates.
public struct Frame: Equatable, Sendable {
    public var type: MessageType
    public var payload: [UInt8]
    /// More payload after `payload`, kept apart so bulk data (a photo chunk read from disk)
    /// is written to the connection from where it lies instead of copied behind the
    /// message's other fields. Frames received have none.
    public var tail: ArraySlice<UInt8>

    public init(type: MessageType, payload: [UInt8], tail: ArraySlice<UInt8> = []) {
        self.type = type
        self.payload = payload
        self.tail = tail
    }

    /// The whole payload, tail included, for reading (copied only when there is a tail,
    /// which frames from the wire never have).
    public var fullPayload: [UInt8] { tail.isEmpty ? payload : payload + tail }

    /// Body length as written in the header: type byte plus payload.
    public var bodyLength: Int { 1 + payload.count + tail.count }

    /// Frames are equal when they would be written as the same bytes.
    public static func == (lhs: Frame, rhs: Frame) -> Bool {
        lhs.type == rhs.type && lhs.bodyLength == rhs.bodyLength
            && (lhs.payload + lhs.tail).elementsEqual(rhs.payload + rhs.tail)
    }

    /// The frame's bytes, header included. Refuses a frame the receiver would refuse.
    public func encoded(maximumFrameSize: Int = WireLimits.defaultMaximumFrameSize) throws(WireError)
        -> [UInt8]
    {
        var output: [UInt8] = []
        try encode(into: &output, maximumFrameSize: maximumFrameSize)
        return output
    }

    /// Appends the frame's bytes to `output`, so that several frames can share one write.
    public func encode(
        into output: inout [UInt8], maximumFrameSize: Int = WireLimits.defaultMaximumFrameSize
    ) throws(WireError) {
        let length = bodyLength
        guard length <= maximumFrameSize, length <= Int(UInt32.max) else {
            throw .frameTooLarge(length: length, maximum: maximumFrameSize)
        }
        output.reserveCapacity(output.count + WireLimits.frameHeaderSize + length)
        withUnsafeBytes(of: UInt32(length).bigEndian) { output.append(contentsOf: $0) }
        output.append(type.rawValue)
        output.append(contentsOf: payload)
        output.append(contentsOf: tail)
    }
}
