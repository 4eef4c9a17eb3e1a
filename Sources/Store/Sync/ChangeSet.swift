/// One field's new value and the stamp that orders it against other writes.
public struct FieldChange: Hashable, Sendable {
    public let field: UInt8
    public let value: SQLValue
    public let stamp: Stamp

    public init(field: UInt8, value: SQLValue, stamp: Stamp) {
        self.field = field
        self.value = value
        self.stamp = stamp
    }
}

/// The changed fields of one object.
public struct ObjectChange: Hashable, Sendable {
    public let entity: Entity
    public let id: String
    public var fields: [FieldChange]

    public init(entity: Entity, id: String, fields: [FieldChange]) {
        self.entity = entity
        self.id = id
        self.fields = fields
    }
}

/// A batch of changes to one zone that one replica sends another.
///
/// `since` is the clock the sender computed it from (what it believed the receiver had);
/// `until` is the sender's clock when it was made, present on the last batch of a delta.
/// A receiver applies the set only when its own clock dominates `since`, and merges `until`
/// into its clock after applying it — never before, so an interrupted transfer only costs
/// a resend.
public struct ChangeSet: Hashable, Sendable {
    public let zone: String
    public let since: VectorClock
    public let until: VectorClock?
    public var objects: [ObjectChange]

    public init(zone: String, since: VectorClock, until: VectorClock?, objects: [ObjectChange]) {
        self.zone = zone
        self.since = since
        self.until = until
        self.objects = objects
    }

    /// The number of field changes it carries.
    public var changeCount: Int { objects.reduce(0) { $0 + $1.fields.count } }
}
