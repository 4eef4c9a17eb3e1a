/// One refused object of a change set: what its author must undo.
public struct Refusal: Sendable, Hashable, CustomStringConvertible {
    public let entity: Entity
    public let id: String
    public let reason: String
    /// The refused fields with the stamps they carried.
    public let fields: [FieldStamp]
    /// Refused for now, not for good: the object refers to a photo or tag the receiver holds
    /// no row of (not received yet: it may come from another peer, as a photo a person's
    /// other device shared). No verdict for its author to undo; the receiver's clock does
    /// not claim it, so it is sent again. Never on the wire.
    public let waitsForReference: Bool
    /// Refused because the receiver's records do not let the author write: its notice
    /// carries those records (`LibraryStore.recordsJudging`). Never on the wire.
    public let forWantOfPermission: Bool

    public init(
        entity: Entity, id: String, reason: String, fields: [FieldStamp] = [],
        waitsForReference: Bool = false,
        forWantOfPermission: Bool = false
    ) {
        self.entity = entity
        self.id = id
        self.reason = reason
        self.fields = fields
        self.waitsForReference = waitsForReference
        self.forWantOfPermission = forWantOfPermission
    }

    public var description: String { "\(entity.name) \(id): \(reason)" }

    /// Whether `version` is the refusing side's version of this refused object.
    public func names(_ version: ObjectChange) -> Bool { version.entity == entity && version.id == id }
}

/// A field code and the stamp of one write of it.
public struct FieldStamp: Sendable, Hashable {
    public let code: UInt8
    public let stamp: Stamp

    public init(code: UInt8, stamp: Stamp) {
        self.code = code
        self.stamp = stamp
    }
}
