import Support

/// The name a client gives itself (`peershare --author NAME`, the request's `author`), so
/// that history records which application made each local change and another application
/// can leave it out (`history --exclude-author NAME`), as the seed's multi-process apps do.
///
/// History records such a change as `local:NAME`. The names history already gives its
/// other authors (`local`, `dedup`, `purge`, `sync`, `sync:PEER`, `refused:PEER`) are
/// reserved: a client taking one could not be told apart from them, nor filtered alone.
public enum ClientAuthor {
    /// The longest name, in UTF-8 bytes.
    public static let maxBytes = 64

    /// Names history uses for its own authors.
    public static let reserved: Set<String> = ["local", "dedup", "purge", "sync", "refused"]

    /// Prefixes of history's own authors (`sync:PEER_ID`, …).
    public static let reservedPrefixes = ["local:", "sync:", "refused:"]

    /// The history author a client's name is recorded as: `local:NAME`.
    public static func historyAuthor(_ name: String) -> String { "local:" + name }

    /// `name` if it is a valid client name, else why not, in words a user can act on.
    public static func check(_ name: String) throws(ControlError) -> String {
        func refuse(_ why: String) -> ControlError {
            ControlError(.invalidRequest, "author \(PrintableText.quoted(name, limit: maxBytes)) \(why)")
        }
        guard !name.isEmpty else {
            throw ControlError(.invalidRequest, "author is empty: name the client, such as \"importer\"")
        }
        guard name.utf8.count <= maxBytes else {
            throw refuse("is \(name.utf8.count) bytes long: at most \(maxBytes) bytes")
        }
        guard PrintableText.isPrintable(name) else {
            throw refuse("holds a control or invisible character: use printable characters only")
        }
        guard name.first != " ", name.last != " " else {
            throw refuse("starts or ends with a space: leave them out")
        }
        let lowered = name.lowercased()
        guard !reserved.contains(lowered), !reservedPrefixes.contains(where: { lowered.hasPrefix($0) }) else {
            throw refuse(
                "is reserved: history uses local, dedup, purge, sync, sync:PEER_ID and refused:PEER_ID "
                    + "for its own authors; choose another name")
        }
        return name
    }
}
