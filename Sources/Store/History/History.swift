/// Who made a committed transaction, as history readers filter on it.
public enum HistoryAuthor: Hashable, Sendable, CustomStringConvertible {
    /// A command of the person using this daemon.
    case local
    /// A command of a client that named itself (`peershare --author NAME`).
    case client(String)
    /// Changes received from a peer.
    case sync(PeerID)
    /// Tag deduplication cleanup.
    case dedup
    /// A zone's copy removed (leave, removal, stop sharing).
    case purge
    /// Changes made here that the peer refused, undone: the objects as that peer holds them.
    case refused(PeerID)

    public var description: String {
        switch self {
        case .local: return "local"
        case .client(let name): return "local:\(name)"
        case .sync(let peer): return "sync:\(peer)"
        case .dedup: return "dedup"
        case .purge: return "purge"
        case .refused(let peer): return "refused:\(peer)"
        }
    }
}

/// The kind of a recorded change.
public enum ChangeType: String, Sendable, Codable {
    case insert, update, delete
}

/// One object touched by a transaction.
public struct HistoryChange: Hashable, Sendable {
    public let entity: String
    public let id: String
    public let zone: String
    public let type: ChangeType
}

/// One committed transaction: the unit clients read with `history --since` and `watch`.
public struct HistoryEntry: Hashable, Sendable {
    /// Monotonically increasing within a store.
    public let token: Int64
    public let author: String
    public let store: StoreKind
    /// Milliseconds since 1970.
    public let timestamp: Int64
    public let changes: [HistoryChange]
}
