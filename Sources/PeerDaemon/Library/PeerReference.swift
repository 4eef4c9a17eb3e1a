import Store

/// A peer typed by a person: a full peer ID, or a unique prefix of one of `candidates`
/// (dashes and letter case ignored).
enum PeerReference {
    static func resolve(_ reference: String, among candidates: [PeerID], kind: String) throws -> PeerID {
        if let full = try? PeerID(parsing: reference) { return full }
        let prefix = reference.uppercased().filter { $0 != "-" }
        let matches = candidates.filter { $0.description.filter { $0 != "-" }.hasPrefix(prefix) }
        guard !prefix.isEmpty, let first = matches.first else {
            throw StoreError.notFound(kind: kind, reference: reference)
        }
        guard matches.count == 1 else {
            throw StoreError.ambiguous(kind: kind, reference: reference, matches: matches.count)
        }
        return first
    }
}
