import ControlProtocol
import Store

/// `history`: committed transactions after a token, of one store or both, without one
/// author if asked (SPEC §4, persistent history).
extension ControlRoutes {
    mutating func registerHistory(_ services: DaemonServices) {
        let library = services.library
        register(.history) { args in
            let since = try args.optionalInt("since") ?? 0
            guard since >= 0 else {
                throw ControlError(
                    .invalidArguments, "history: since must be a token (0 or more), not \(since)")
            }
            let limit = try args.optionalInt("limit") ?? 10_000
            guard (1...100_000).contains(limit) else {
                throw ControlError(.invalidArguments, "history: limit must be from 1 to 100000, not \(limit)")
            }
            let excluded = try args.optionalString("exclude_author").map(Self.author)
            let stores =
                try args.optionalString("store").map { [library.store(try Self.storeKind($0))] }
                ?? library.stores
            let entries = try stores.flatMap {
                try $0.history(since: Int64(since), excludingAuthor: excluded, limit: limit)
            }
            // Tokens count per store: both stores' entries are merged by time.
            let ordered = entries.sorted {
                ($0.timestamp, $0.store == .private ? 0 : 1, $0.token)
                    < ($1.timestamp, $1.store == .private ? 0 : 1, $1.token)
            }
            return .array(ordered.prefix(limit).map(\.json))
        }
    }

    private static func storeKind(_ text: String) throws(ControlError) -> StoreKind {
        guard let kind = StoreKind(rawValue: text) else {
            throw ControlError(.invalidArguments, "history: store must be private or shared, not '\(text)'")
        }
        return kind
    }

    /// An author as history records it; a peer ID is normalised to its printed form.
    private static func author(_ text: String) throws(ControlError) -> String {
        if ["local", "dedup", "purge", "sync"].contains(text) { return text }
        if text.hasPrefix("sync:"), let peer = try? PeerID(parsing: String(text.dropFirst(5))) {
            return "sync:\(peer)"
        }
        throw ControlError(
            .invalidArguments,
            "history: exclude_author must be local, dedup, purge, sync or sync:PEER_ID, not '\(text)'")
    }
}
