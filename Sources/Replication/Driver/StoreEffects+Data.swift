import Glibc
import Store

/// Photo data through a connection: partial files on the fetching side, authorised and
/// bounded reads on the serving side.
extension StoreEffects {
    func openPartial(_ item: DataItem) -> PartialOpenResult {
        let store = library.store(item.store)
        guard claims.claim(item.hash, in: item.store) else { return .busy }
        if store.blobs.contains(item.hash.hex) {
            claims.release(item.hash, in: item.store)
            return .alreadyPresent
        }
        do {
            let blob = try PartialBlob(store: store.blobs, hash: item.hash.hex, expectedSize: item.size)
            partials[item.hash] = (blob, item.store)
            return .opened(existingBytes: blob.size)
        } catch {
            claims.release(item.hash, in: item.store)
            return .failed("\(error)")
        }
    }

    func write(_ hash: ContentHash, _ bytes: ArraySlice<UInt8>) -> [SessionEvent] {
        guard let partial = partials[hash] else { return [.dataWriteFailed(hash, "no partial file is open")] }
        do {
            try bytes.withUnsafeBytes { try partial.blob.append($0) }
            return []
        } catch {
            return [.dataWriteFailed(hash, "\(error)")]
        }
    }

    /// Verifies the data. Matching data goes to `publish`, and its `dataFinished` comes back
    /// through `deliver` once the data is durable and visible; a mismatch is answered at once.
    func finish(_ hash: ContentHash) -> [SessionEvent] {
        guard let partial = partials.removeValue(forKey: hash) else {
            return [.dataFinished(hash, .failed("no partial file is open"))]
        }
        let (claims, store) = (self.claims, partial.store)
        do {
            guard try partial.blob.verify() else {
                claims.release(hash, in: store)
                return [.dataFinished(hash, .mismatch)]
            }
        } catch {
            partial.blob.close()
            claims.release(hash, in: store)
            return [.dataFinished(hash, .failed("\(error)"))]
        }
        let (onDataStored, deliver, library) = (self.onDataStored, self.deliver, self.library)
        publish(partial.blob) { failure in
            claims.release(hash, in: store)
            if let failure {
                deliver(.dataFinished(hash, .failed("\(failure)")))
            } else {
                // The photo may have been deleted while its data was in transfer.
                try? library.store(store).collectBlob(hash.hex)
                onDataStored(store, hash)
                deliver(.dataFinished(hash, .stored))
            }
        }
        return []
    }

    func closePartial(_ hash: ContentHash, discard: Bool) {
        guard let partial = partials.removeValue(forKey: hash) else { return }
        if discard { partial.blob.discard() } else { partial.blob.close() }
        claims.release(hash, in: partial.store)
    }

    /// Serves a range of data the peer may have: data of a live photo in a zone replicated
    /// with it. Anything else is `unknown`, whether or not this peer holds it.
    func read(_ request: DataRequest) -> DataReadResult {
        if served?.hash != request.hash {
            closeServedFile()
            switch openServable(request.hash) {
            case .success(let file): served = (request.hash, file.fd, file.size)
            case .failure(let refusal): return refusal.result
            }
        }
        guard let file = served else { return .refused(.readFailed, "no file open") }
        guard request.offset <= file.size else {
            return .refused(.badRange, "offset \(request.offset) is past the end (\(file.size) bytes)")
        }
        let count = Int(min(UInt64(request.length), file.size - request.offset))
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { raw, done in
            done = 0
            while done < count {
                let n = pread(
                    file.fd, raw.baseAddress! + done, count - done, off_t(request.offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                done += n
            }
        }
        guard bytes.count == count else {
            let reason = errnoText()
            closeServedFile()
            return .refused(.readFailed, "cannot read the data: \(reason)")
        }
        return .bytes(bytes, isFinal: request.offset + UInt64(count) == file.size)
    }

    private struct ServeRefusal: Error {
        let result: DataReadResult
    }

    /// Opens the blob of `hash` if a live photo of a zone replicated with the peer uses it.
    private func openServable(_ hash: ContentHash) -> Result<(fd: Int32, size: UInt64), ServeRefusal> {
        let hex = hash.hex
        var shared = false
        for kind in StoreKind.allCases {
            let store = library.store(kind)
            let referencing = (try? store.zones(referencingData: hex)) ?? []
            guard referencing.contains(where: { zones[$0]?.store == kind }) else { continue }
            shared = true
            guard store.blobs.contains(hex) else { continue }
            let fd = open(store.blobs.path(for: hex), O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                return .failure(
                    ServeRefusal(result: .refused(.readFailed, "cannot open the data: \(errnoText())")))
            }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                close(fd)
                return .failure(
                    ServeRefusal(result: .refused(.readFailed, "cannot read the data: \(errnoText())")))
            }
            return .success((fd, UInt64(info.st_size)))
        }
        if shared {
            return .failure(ServeRefusal(result: .refused(.unavailable, "the data has not arrived here yet")))
        }
        return .failure(
            ServeRefusal(result: .refused(.unknown, "no photo with this data is shared with you")))
    }

    private func errnoText() -> String { String(cString: strerror(errno)) }
}
