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

    /// A change of `field` (its code travels).
    public init(field: EntityField, value: SQLValue, stamp: Stamp) {
        self.init(field: field.code, value: value, stamp: stamp)
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
/// `since` is what the receiver must already hold for the batch to make sense (the clock
/// the sender computed the delta from, plus the batches before this one); `until` is what
/// the receiver holds once it has applied it. A receiver applies a set only when its own
/// clock dominates `since`, and merges `until` into its clock in the same transaction, so a
/// lost, repeated or reordered batch never makes a clock claim a change that is missing.
public struct ChangeSet: Hashable, Sendable {
    public let zone: String
    public let since: VectorClock
    public let until: VectorClock
    public var objects: [ObjectChange]

    public init(zone: String, since: VectorClock, until: VectorClock, objects: [ObjectChange]) {
        self.zone = zone
        self.since = since
        self.until = until
        self.objects = objects
    }

    /// The number of field changes it carries.
    public var changeCount: Int { objects.reduce(0) { $0 + $1.fields.count } }
}
