import CLinux
import Glibc

extension BlobStore {
    /// Makes verified photo data durable, then visible under its hash: one filesystem sync
    /// for the whole group instead of one fsync per photo, so a thousand small photos cost
    /// one disk flush, not a thousand. The data is on disk before any rename, so a crash
    /// never leaves a photo under its hash with missing bytes (at worst the partial file
    /// stays and the transfer resumes). Returns, per blob, the error that kept it out.
    public static func publish(_ blobs: [PartialBlob]) -> [StoreError?] {
        var failures: [String: StoreError] = [:]
        if blobs.count == 1 {
            // One photo: syncing only its file is cheaper than the whole filesystem.
            if let error = syncFile(blobs[0].path) { failures[blobs[0].path] = error }
        } else {
            for root in Set(blobs.map(\.storeRoot)) {
                if let error = syncFilesystem(of: root) { failures[root] = error }
            }
        }
        return blobs.map { blob in
            if let failure = failures[blob.storeRoot] ?? failures[blob.path] { return failure }
            do {
                try blob.rename()
                return nil
            } catch let error as StoreError {
                return error
            } catch {
                return StoreError.io(operation: "publishing", path: blob.path, reason: "\(error)")
            }
        }
    }

    private static func syncFile(_ path: String) -> StoreError? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .io(operation: "opening", path: path, reason: errorText()) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { return .io(operation: "syncing", path: path, reason: errorText()) }
        return nil
    }

    static func syncFilesystem(of root: String) -> StoreError? {
        let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return .io(operation: "opening", path: root, reason: errorText()) }
        defer { close(fd) }
        guard syncfs(fd) == 0 else { return .io(operation: "syncing", path: root, reason: errorText()) }
        return nil
    }
}
