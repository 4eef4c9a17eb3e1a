import Store
import Support

extension MessageType {
    /// The receiver of a signed-sets message has checked and kept it: the sender may send more.
    public static let setsTaken = MessageType(rawValue: 0x15)
}

extension Capabilities {
    /// The sender answers every signed-sets message with `SetsTakenMessage` once it has taken
    /// it, and keeps at most `SessionConfiguration.setsWindow` of its own unanswered: signed
    /// sets flow as fast as the receiver takes them, not as fast as the sender reads them.
    public static let setAcks = Capabilities(rawValue: 1 << 8)
}

/// The answer to one signed-sets message of a zone, in the order they came: the receiver has
/// checked and kept (or refused) its sets. It exists for flow control: without it a member
/// relaying a zone's sets to a joiner sent them as fast as it read them, and the joiner held
/// up to its inbox limit (48 MiB) of them while it was still applying the zone's changes.
///
///     zone: string (≤ max zone bytes)
public struct SetsTakenMessage: WireMessage {
    public static let type = MessageType.setsTaken
    public static let name = "sets taken"

    public var zone: String

    public init(zone: String) {
        self.zone = zone
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(zone)
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        zone = try reader.readString("zone", maximumBytes: limits.maxZoneIDBytes)
    }

    public var encodedSizeHint: Int { 4 + zone.utf8.count }
}
