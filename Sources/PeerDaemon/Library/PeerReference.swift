import Store

/// A peer typed by a person: a full peer ID, or a unique prefix of one of `candidates`
/// (dashes and letter case ignored).
enum PeerReference {
    static func resolve(_ reference: String, among candidates: [PeerID], kind: String) throws -> PeerID {
        if let full = try? PeerID(parsing: reference) { return full }
        return try UniquePrefix.match(
            reference.uppercased().filter { $0 != "-" }, reference: reference, among: candidates, kind: kind
        ) { $0.description.filter { $0 != "-" } }
    }
}

/// The one candidate whose key starts with a prefix a person typed: what every short ID on
/// the command line resolves through when its candidates are not rows of an entity (those go
/// through `Library.resolve`).
enum UniquePrefix {
    /// The candidate whose `key` starts with `prefix`; `notFound` for none (or an empty
    /// prefix), `ambiguous` for several. `reference` is what the person typed, for the message.
    static func match<Candidate>(
        _ prefix: String, reference: String, among candidates: [Candidate], kind: String,
        key: (Candidate) -> String
    ) throws -> Candidate {
        let matches = candidates.filter { key($0).hasPrefix(prefix) }
        guard !prefix.isEmpty, let first = matches.first else {
            throw StoreError.notFound(kind: kind, reference: reference)
        }
        guard matches.count == 1 else {
            throw StoreError.ambiguous(kind: kind, reference: reference, matches: matches.count)
        }
        return first
    }
}
