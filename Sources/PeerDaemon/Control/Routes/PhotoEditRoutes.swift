import ControlProtocol
import Glibc
import Store

/// `photo.export`, `photo.rename`, `photo.delete`: photos out, renamed and gone.
extension ControlRoutes {
    mutating func registerPhotoEdits(_ services: DaemonServices) {
        let library = services.library
        registerWithProgress(.photoExport) { args, progress in
            let (reference, file) = (try args.string("photo"), try args.absolutePath("file"))
            let photo = try Self.photo(reference, in: library)
            let destination = Self.exportPath(file, for: photo)
            guard !photo.pending else {
                throw ControlError(
                    .pending,
                    "photo \(photo.id.prefix(8))'s data has not fully arrived from its share yet: "
                        + "wait for the sync ('peershare sync --wait') and retry")
            }
            let store = library.store(photo.store)
            // The store writes DESTINATION.peershare-partial, then renames it into place.
            let partial = destination + ".peershare-partial"
            try progress.track(total: photo.size, measure: { TransferProbe.size(of: partial) }) {
                try store.blobs.export(photo.sha256, to: destination)
            }
            return [
                "id": .string(photo.id), "file": .string(destination), "size": .int(Int(photo.size)),
                "sha256": .string(photo.sha256),
            ]
        }
        register(.photoRename) { args in
            let (reference, name) = (try args.string("photo"), try args.string("name"))
            let resolved = try library.resolve(.photo, reference)
            try resolved.store.renamePhoto(resolved.id, to: name)
            return try Self.photo(resolved.id, in: library).json
        }
        register(.photoDelete) { args in
            let resolved = try library.resolve(.photo, try args.string("photo"))
            try resolved.store.deletePhoto(resolved.id)
            return ["id": .string(resolved.id)]
        }
    }

    /// Where an export goes: the file named, or, for an existing directory, a file in it
    /// named after the photo (as `cp` does).
    static func exportPath(_ path: String, for photo: Photo) -> String {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return path }
        var name = photo.name.replacing("/", with: "_")
        if name == "." || name == ".." || name.isEmpty { name = photo.id }
        return (path.hasSuffix("/") ? path : path + "/") + name
    }
}

extension ControlError.Code {
    /// The photo's data has not arrived from its share yet.
    static let pending: Self = "pending"
}
