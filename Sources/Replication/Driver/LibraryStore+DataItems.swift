import Store

extension LibraryStore {
    /// Photo data live photos of `zone` refer to and this store lacks, as items a session
    /// fetches (`missingData(zone:)`; none when the store cannot be read).
    func missingDataItems(zone: String) -> [DataItem] {
        ((try? missingData(zone: zone)) ?? []).compactMap { reference in
            ContentHash(hex: reference.hash).map { DataItem(hash: $0, size: reference.size, store: kind) }
        }
    }
}
