/// A person's identity: the SHA-256 of the signed entry that founded the person's device
/// list.
///
/// Why a type of its own: a person outlives each of their devices (a laptop is replaced, a
/// home server added), so shares are owned by and shared with persons, while connections,
/// stamps and signatures stay per device (`PeerID`). Printed and parsed like a device ID
/// (56 base-32 characters with Luhn checks), so one parser catches typos in both.
public struct PersonID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    /// Wraps a 32-byte SHA-256 digest.
    public init?(digest: [UInt8]) {
        guard digest.count == 32 else { return nil }
        self.bytes = digest
    }

    /// Parses the printed form; dashes, spaces and letter case are ignored.
    public init(parsing text: String) throws(PeerIDError) {
        self.bytes = try PeerID(parsing: text).bytes
    }

    public var description: String { PeerID(digest: bytes)!.description }

    /// The first seven characters, for logs.
    public var short: String { String(description.prefix(7)) }

    public static func < (a: PersonID, b: PersonID) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}
