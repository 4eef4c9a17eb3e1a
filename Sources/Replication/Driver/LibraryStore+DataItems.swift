import Store

extension LibraryStore {
    /// Photo data live photos of `zone` refer to and this store lacks, as items a session
    /// fetches (`missingData(zone:)`; none when the store cannot be read).
    func missingDataItems(zone: String) -> [DataItem] {
        dataItems((try? missingData(zone: zone)) ?? [])
    }

    /// `references` as items a session fetches from this store's peer.
    func dataItems(_ references: [DataReference]) -> [DataItem] {
        references.compactMap { reference in
            ContentHash(hex: reference.hash).map { DataItem(hash: $0, size: reference.size, store: kind) }
        }
    }
}
