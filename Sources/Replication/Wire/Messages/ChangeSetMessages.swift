import Store

extension MessageType {
    /// A batch of changes to one zone.
    public static let changeSet = MessageType(rawValue: 0x03)
    /// A change set was applied; carries the receiver's clock afterwards.
    public static let changeSetAck = MessageType(rawValue: 0x04)
    /// A change set could not be applied yet; carries the receiver's clock.
    public static let changeSetNotReady = MessageType(rawValue: 0x05)
}

/// One batch of changes to a zone, in `ChangeSetCodec` form.
///
/// The zone is written outside the codec bytes too, so the receiver can refuse a zone it
/// does not share with the sender before decoding; the two must agree. Every change set is
/// answered, in order, by exactly one `ChangeSetAck` or `ChangeSetNotReady`.
///
///     zone: string | change set: bytes (ChangeSetCodec)
public struct ChangeSetMessage: WireMessage {
    public static let type = MessageType.changeSet
    public static let name = "change set"

    public var set: ChangeSet

    public init(_ set: ChangeSet) {
        self.set = set
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(set.zone)
        writer.writeLengthPrefixed(ChangeSetCodec.encode(set))
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        let zone = try reader.readZoneID("zone", limits: limits)
        let bytes = try reader.readLengthPrefixed("change set", maximum: reader.remaining)
        let set = try ChangeSetCodec.decode(bytes, limits: limits.changeSet)
        guard set.zone == zone else {
            throw .invalidValue(field: "change set zone", reason: "differs from the message's zone")
        }
        self.set = set
    }
}

/// The receiver applied a change set (or ignored it, for a zone it does not share with the
/// sender: then `clock` is empty). `clock` is the receiver's clock of the zone afterwards.
///
///     zone: string | clock
public struct ChangeSetAck: ZoneClockMessage {
    public static let type = MessageType.changeSetAck
    public static let name = "change set ack"

    public var zone: String
    public var clock: VectorClock

    public init(zone: String, clock: VectorClock) {
        self.zone = zone
        self.clock = clock
    }
}

/// The receiver's clock does not dominate the set's `since` (an earlier batch is missing):
/// the sender resends from `clock`.
///
///     zone: string | clock
public struct ChangeSetNotReady: ZoneClockMessage {
    public static let type = MessageType.changeSetNotReady
    public static let name = "change set not ready"

    public var zone: String
    public var clock: VectorClock

    public init(zone: String, clock: VectorClock) {
        self.zone = zone
        self.clock = clock
    }
}

/// A message that is a zone and a clock (`ChangeSetAck`, `ChangeSetNotReady`): one codec for
/// both, each keeping its own type.
public protocol ZoneClockMessage: WireMessage {
    var zone: String { get }
    var clock: VectorClock { get }
    init(zone: String, clock: VectorClock)
}

extension ZoneClockMessage {
    public func encode(into writer: inout BinaryWriter) {
        writer.write(zone)
        writer.write(clock)
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        self.init(
            zone: try reader.readZoneID("zone", limits: limits),
            clock: try reader.readVectorClock("clock", limits: limits))
    }
}
