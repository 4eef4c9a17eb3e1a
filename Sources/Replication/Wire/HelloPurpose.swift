/// What a connection is for, said in the hello: replicating zones, a short visit about a
/// share (join, leave, membership check), or linking a device.
///
/// A struct rather than a closed enum, like `MessageType`: a purpose this build does not
/// know still decodes, so the session can refuse it with a clear reason (docs/PROTOCOL.md
/// §4, §4.2).
public struct HelloPurpose: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// A replication connection between members (§7, §8).
    public static let sync = HelloPurpose(rawValue: 0)
    /// A guest: one sharing message (join, leave, membership check) and its answer (§10).
    public static let join = HelloPurpose(rawValue: 1)
    /// Linking a new device to a person (SPEC §12): one link request and its answer.
    public static let link = HelloPurpose(rawValue: 2)

    /// The purposes this build serves; any other is refused after the hello.
    public static let served: Set<HelloPurpose> = [.sync, .join, .link]

    public var description: String {
        switch self {
        case .sync: return "sync"
        case .join: return "join"
        case .link: return "link"
        default: return "purpose \(rawValue)"
        }
    }
}

extension Capabilities {
    /// The previous release's role marker, bit 63: set by a guest connection, whose hello had
    /// no purpose. Read only from a hello without a purpose; guests still set it, so that an
    /// owner of the previous release (which reads only the bit) serves them as guests.
    public static let joining = Capabilities(rawValue: 1 << 63)
}
