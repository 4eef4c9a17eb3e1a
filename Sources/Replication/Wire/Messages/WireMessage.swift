/// One kind of replication message: its frame type and how its payload is written and read.
///
/// Each family file declares its types; `PeerMessage` dispatches a received frame to the
/// right one. Decoding reads the payload exactly (trailing bytes are an error) and checks
/// every length against `MessageLimits` before allocating.
public protocol WireMessage: Equatable, Sendable {
    static var type: MessageType { get }
    /// A short name for errors and logs.
    static var name: String { get }
    func encode(into writer: inout BinaryWriter)
    init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError)
    /// About how many bytes the payload takes, so encoding allocates once.
    var encodedSizeHint: Int { get }
    /// The message as one frame.
    func frame() -> Frame
}

extension WireMessage {
    public var encodedSizeHint: Int { 64 }

    /// The message as one frame.
    public func frame() -> Frame {
        var writer = BinaryWriter(capacity: encodedSizeHint)
        encode(into: &writer)
        return Frame(type: Self.type, payload: writer.bytes)
    }

    /// Decodes a frame that must be of this message's type.
    public init(frame: Frame, limits: MessageLimits = MessageLimits()) throws(WireError) {
        guard frame.type == Self.type else {
            throw .unexpectedMessage(type: frame.type.rawValue, expected: Self.name)
        }
        var reader = BinaryReader(frame.fullPayload)
        try self.init(reading: &reader, limits: limits)
        try reader.expectEnd(of: Self.name)
    }
}
