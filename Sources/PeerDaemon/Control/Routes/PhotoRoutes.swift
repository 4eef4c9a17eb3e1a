import ControlProtocol
import Store

/// `photo.add`, `photo.list`, `photo.show`: photos in, and what they look like.
extension ControlRoutes {
    mutating func registerPhotos(_ services: DaemonServices) {
        let library = services.library
        registerWithProgress(.photoAdd) { args, progress in
            let file = try args.absolutePath("file")
            let thumbnail = try args.optionalAbsolutePath("thumbnail").map {
                try InputFile.readThumbnail($0, limit: library.limits.maxThumbnailBytes)
            }
            let (name, tags, share) = (
                try args.optionalString("name"), try args.strings("tags"), try args.optionalString("share")
            )
            let allowDuplicates = try args.bool("allow_duplicates", default: false)
            try InputFile.requireRegularOrMissing(file)
            let outcome = try progress.track(
                total: InputFile.size(file), measure: { TransferProbe.readOffset(of: file) ?? 0 }
            ) {
                try library.importPhoto(
                    file: file, name: name, thumbnail: thumbnail, tags: tags, share: share,
                    allowDuplicates: allowDuplicates)
            }
            switch outcome {
            case .added(let id):
                services.logger.debug("photo added", ["photo": String(id.prefix(8))])
                return ["id": .string(id)]
            case .duplicate(let existing):
                return ["id": .string(existing), "skipped": true, "duplicate_of": .string(existing)]
            }
        }
        register(.photoList) { args in
            .array(try PhotoPage(args, library: library).photos().map(\.json))
        }
        register(.photoShow) { args in
            return try Self.photo(try args.string("photo"), in: library).json
        }
    }

    /// The live photo a reference (ID prefix) names.
    static func photo(_ reference: String, in library: Library) throws -> Photo {
        let resolved = try library.resolve(.photo, reference)
        guard let photo = try resolved.store.photo(resolved.id) else {
            throw StoreError.notFound(kind: "photo", reference: reference)
        }
        return photo
    }
}
