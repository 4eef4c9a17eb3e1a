import ControlProtocol
import Replication
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
            let names = Self.deviceNames(library)
            let displayNames = DisplayNames(library.privateStore)
            let excluded = try args.optionalString("exclude_author").map { text throws(ControlError) in
                try Self.author(text, names: names, local: library.localPeer)
            }
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
            return .array(
                ordered.prefix(limit).map { entry in
                    guard case .object(var fields) = entry.json else { return entry.json }
                    fields["device"] = Self.device(of: entry, names: names, local: library.localPeer)
                    // The device's and its person's display names, whoever's they are (SPEC §15).
                    let who = Self.deviceID(of: entry, local: library.localPeer).map { displayNames.of($0) }
                    fields["device_name"] = who?.deviceName.map(JSON.string) ?? .null
                    fields["person_name"] = who?.personName.map(JSON.string) ?? .null
                    return .object(fields)
                })
        }
    }

    private static func storeKind(_ text: String) throws(ControlError) -> StoreKind {
        guard let kind = StoreKind(rawValue: text) else {
            throw ControlError(.invalidArguments, "history: store must be private or shared, not '\(text)'")
        }
        return kind
    }

    /// An author as history records it; a peer ID is normalised to its printed form, the
    /// name of one of the person's devices stands for that device (`local` for this one), and
    /// any other valid client name for that client (`local:NAME`, as `--author NAME` records
    /// it; `local:NAME` names the client even when a device has the same name).
    private static func author(_ text: String, names: [PeerID: String], local: PeerID) throws(ControlError)
        -> String
    {
        if ["local", "dedup", "purge", "sync"].contains(text) { return text }
        if text.hasPrefix("sync:"), let peer = try? PeerID(parsing: String(text.dropFirst(5))) {
            return "sync:\(peer)"
        }
        if text.hasPrefix("local:"), let client = try? ClientAuthor.check(String(text.dropFirst(6))) {
            return ClientAuthor.historyAuthor(client)
        }
        let named = names.filter { $0.value == text }.map(\.key)
        if named.count == 1, let device = named.first { return device == local ? "local" : "sync:\(device)" }
        if named.isEmpty, let client = try? ClientAuthor.check(text) {
            return ClientAuthor.historyAuthor(client)
        }
        let why = named.count > 1 ? "; several of your devices are called '\(text)': give its device ID" : ""
        throw ControlError(
            .invalidArguments,
            "history: exclude_author must be local, dedup, purge, sync, sync:PEER_ID, the name of one of "
                + "your devices or a client's name (--author), not '\(text)'\(why)")
    }

    /// The names of this person's devices, from its checked list (empty if it cannot be read).
    private static func deviceNames(_ library: Library) -> [PeerID: String] {
        guard let list = try? LocalPerson.current(in: library.privateStore) else { return [:] }
        return Dictionary(list.devices.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
    }

    /// The name of the device that made `entry`'s changes, when it is one of this person's:
    /// this device for its own transactions, the peer for what a sync brought.
    private static func device(of entry: HistoryEntry, names: [PeerID: String], local: PeerID) -> JSON {
        deviceID(of: entry, local: local).flatMap { names[$0] }.map(JSON.string) ?? .null
    }

    /// The device that made `entry`'s changes: this one, or the peer a sync brought them from.
    private static func deviceID(of entry: HistoryEntry, local: PeerID) -> PeerID? {
        entry.author.hasPrefix("sync:") ? try? PeerID(parsing: String(entry.author.dropFirst(5))) : local
    }
}
