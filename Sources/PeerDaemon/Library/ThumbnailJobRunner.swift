import Store
import Support

/// Works through the thumbnail jobs of a library: for each photo added on this device without
/// a thumbnail, makes one from its data file and stores it (a replicated local change),
/// or ends the job when no thumbnail can be made (SPEC §14).
///
/// A job whose failure a retry could fix (the store could not write, the data is missing) is
/// kept for the next start and skipped until then, so a drain always ends.
struct ThumbnailJobRunner: Sendable {
    let library: Library
    let logger: Logger
    let maker: ThumbnailProcess
    /// Jobs left for the next start; shared by every drain of this run.
    let kept: Guarded<Set<String>>

    /// Photos asked of a store at a time.
    private static let batch = 16

    /// Handles every job of both stores, oldest ID first, until none is left or `stop` fires.
    func drain(until stop: StopSignal) {
        for store in library.stores {
            while !stop.isFired {
                let jobs: [String]
                do {
                    jobs = try store.thumbnailJobs(limit: Self.batch, skipping: kept.withLock { $0 })
                } catch {
                    logger.error("cannot read the thumbnail jobs: \(error)", ["store": "\(store.kind)"])
                    return
                }
                if jobs.isEmpty { break }
                let files = jobs.compactMap { try? store.dataFile(ofPhoto: $0) }
                let made = maker.thumbnails(ofFiles: Array(Set(files)).sorted())
                for photo in jobs where !stop.isFired { run(photo, in: store, made: made) }
            }
        }
    }

    private func run(
        _ photo: String, in store: LibraryStore, made: [String: Result<[UInt8], ThumbnailProcess.Failure>]
    ) {
        let log = logger.with("photo", String(photo.prefix(8)))
        do {
            guard let file = try store.dataFile(ofPhoto: photo) else {
                if try store.photo(photo) == nil {
                    try store.dropThumbnailJob(photo)
                } else {
                    keep(photo, log, "its data is not on this device")
                }
                return
            }
            // A file the thumbnailer did not reach (it ended on an earlier one) waits for the
            // next batch.
            guard let result = made[file] else { return }
            let thumbnail: [UInt8]
            switch result {
            case .success(let bytes):
                thumbnail = bytes
            case .failure(let failure):
                try handle(failure, photo, in: store, log)
                return
            }
            let limit = library.limits.maxThumbnailBytes
            guard thumbnail.count <= limit else {
                log.warning(
                    "no thumbnail: the one made is \(thumbnail.count) bytes, over max_thumbnail_bytes (\(limit))"
                )
                try store.dropThumbnailJob(photo)
                return
            }
            if try store.setThumbnail(ofPhoto: photo, thumbnail) == .stored {
                log.debug("thumbnail made", ["bytes": "\(thumbnail.count)"])
            }
        } catch let error as StoreError {
            switch error {
            case .permissionDenied, .invalid, .clockBehind:
                // The share stopped, or this device may no longer write to it: no retry helps.
                log.warning("no thumbnail: \(error)")
                try? store.dropThumbnailJob(photo)
            default:
                keep(photo, log, "\(error)")
            }
        } catch {
            keep(photo, log, "\(error)")
        }
    }

    private func handle(
        _ error: ThumbnailProcess.Failure, _ photo: String, in store: LibraryStore, _ log: Logger
    ) throws {
        switch error {
        case .notAnImage(let reason):
            log.info(
                "no thumbnail: the photo's data is not an image a thumbnail is made of", ["reason": reason])
            try store.dropThumbnailJob(photo)
        case .unreadable(let reason):
            // Deleted meanwhile (its data went with it), or the data file is unreadable.
            if try store.photo(photo) == nil {
                try store.dropThumbnailJob(photo)
            } else {
                keep(photo, log, "cannot read its data: \(reason)")
            }
        case .failed(let reason):
            keep(photo, log, reason)
        }
    }

    private func keep(_ photo: String, _ log: Logger, _ reason: String) {
        log.warning("no thumbnail yet, retried at the next start: \(reason)")
        kept.withLock { _ = $0.insert(photo) }
    }
}
