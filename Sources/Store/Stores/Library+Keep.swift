/// `share keep` (SPEC §15): a participant copies a share's photos into its own private
/// library before leaving, so that they outlive the share.
extension Library {
    /// What keeping a share copied.
    public struct KeepResult: Sendable, Equatable {
        /// The new photos of the private library (default zone), one per photo copied.
        public var kept: [String] = []
        /// Photos of the share whose full-size data has not arrived yet: not copied.
        public var withoutData: [String] = []
    }

    /// Copies every photo of the share `zone` this participant holds, with its data, name,
    /// thumbnail and tag names, into the default zone of the private library (new photos, new
    /// IDs: the copies are this person's, the share is untouched).
    public func keep(share zone: String) throws -> KeepResult {
        guard zone != LibraryStore.defaultZone, try sharedStore.requireZoneExists(zone) else {
            throw StoreError.invalid(
                "share \(zone.prefix(8)) is not one you take part in: only a participant keeps a copy of a share"
            )
        }
        var result = KeepResult()
        for photo in try sharedStore.photos(zone: zone) {
            let hash = photo[PhotoField.dataHash].textValue ?? ""
            guard !photo.pending, !hash.isEmpty, sharedStore.blobs.contains(hash) else {
                result.withoutData.append(photo.id)
                continue
            }
            let data = try privateStore.blobs.importFile(
                at: sharedStore.blobs.path(for: hash), limit: limits.maxPhotoBytes)
            do {
                result.kept.append(
                    try privateStore.addPhoto(
                        name: photo[PhotoField.name].textValue ?? "photo", data: data,
                        thumbnail: try sharedStore.thumbnail(ofPhoto: photo.id),
                        tags: photo.tags.map(\.name)))
            } catch {
                try? privateStore.collectBlob(data.hash)
                throw error
            }
        }
        return result
    }
}
