import Store

/// Lookups the commands need beyond `Library.resolve`: a zone filter that also takes
/// `default`, and a tag given without a photo (by ID prefix, or by a name only one live
/// tag has).
extension Library {
    /// The store and zone a `--share` filter names: `default` for the private default
    /// zone, else a share ID prefix.
    func zone(named share: String) throws -> (store: LibraryStore, zone: String) {
        if share == LibraryStore.defaultZone { return (privateStore, share) }
        let resolved = try resolve(.share, share)
        return (resolved.store, resolved.id)
    }

    /// A tag by ID prefix or, failing that, by a name exactly one live tag of either store
    /// has; several tags of that name (in different zones) make the name ambiguous.
    func tag(named reference: String) throws -> (store: LibraryStore, id: String) {
        do {
            let resolved = try resolve(.tag, reference)
            return (resolved.store, resolved.id)
        } catch let error as StoreError {
            guard case .notFound = error else { throw error }
            var named: [(store: LibraryStore, id: String)] = []
            for store in stores { named += try store.tags(named: reference).map { (store, $0.id) } }
            guard let first = named.first else { throw error }
            guard named.count == 1 else {
                throw StoreError.ambiguous(kind: "tag", reference: reference, matches: named.count)
            }
            return first
        }
    }
}
