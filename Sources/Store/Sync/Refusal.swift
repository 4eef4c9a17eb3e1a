/// One refused object of a change set: what its author must undo.
public struct Refusal: Sendable, Hashable, CustomStringConvertible {
    public let entity: Entity
    public let id: String
    public let reason: String
    /// The refused fields with the stamps they carried.
    public let fields: [FieldStamp]

    public init(entity: Entity, id: String, reason: String, fields: [FieldStamp] = []) {
        self.entity = entity
        self.id = id
        self.reason = reason
        self.fields = fields
    }

    public var description: String { "\(entity.name) \(id): \(reason)" }
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
