import CLinux
import Glibc
import Support

/// Photo data arriving from a peer, written to a stable per-hash partial file
/// (`<root>/tmp/<hash>.partial`), so that a transfer cut in the middle resumes where it
/// stopped instead of starting over.
///
/// Bytes are hashed as they are appended (and what an earlier transfer left is hashed once
/// on open), so verifying the SHA-256 at the end costs no second read. The blob becomes
/// visible only by an atomic rename after the hash matched and the data is on disk: a
/// crash, a full disk or a lying peer never leaves a wrong or half-written photo in place.
/// One writer per hash at a time: the caller makes sure of it. A blob is used by one thread
/// at a time; it may be handed to another (the committer) once written.
public final class PartialBlob: @unchecked Sendable {
    /// What `commit` found.
    public enum Outcome: Sendable, Equatable {
        /// The data matched its hash and is now in the store.
        case stored
        /// The data did not match its hash; the partial file was deleted.
        case mismatch
    }

    public let hash: String
    public let expectedSize: Int64
    /// Bytes received: where the transfer continues. In the partial file, but for the last
    /// part of a large photo's data (at most 1 MiB), which its direct writer holds until
    /// `verify` or `close`.
    public private(set) var size: Int64 = 0
    /// Large photos' data goes past the page cache (`DirectWriter`); nil for small ones,
    /// on filesystems that refuse it, and once a direct write was refused.
    private var direct: DirectWriter?
    /// The first append starts a direct writer (and its buffer: a blob opened and not yet
    /// written to holds none).
    private var startsDirectly = false
    /// Where the writing back to disk that `append` starts has reached.
    private var writtenBack: Int64 = 0
    public let path: String
    private let store: BlobStore
    private var fd: Int32
    private let hasher = SHA256Hasher()
    private var isVerified = false

    /// Opens the partial file of `hash` (64 lowercase hex digits), creating it when missing.
    /// A file longer than `expectedSize` cannot be a prefix of the data and is started over.
    public init(store: BlobStore, hash: String, expectedSize: Int64) throws {
        guard LibraryStore.isHexDigest(hash) else {
            throw StoreError.invalid("'\(hash)' is not a SHA-256 digest")
        }
        self.store = store
        self.hash = hash
        self.expectedSize = expectedSize
        path = "\(store.root)/tmp/\(hash).partial"
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError.io(operation: "opening", path: path, reason: BlobStore.errorText())
        }
        do {
            try resume()
            startsDirectly = expectedSize - size >= Self.directBytes
        } catch {
            Glibc.close(fd)
            fd = -1
            throw error
        }
    }

    deinit { close() }

    /// Hashes what an earlier transfer left and positions the file at its end.
    private func resume() throws {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw StoreError.io(operation: "reading the size of", path: path, reason: BlobStore.errorText())
        }
        if Int64(info.st_size) > expectedSize {
            guard ftruncate(fd, 0) == 0 else {
                throw StoreError.io(operation: "truncating", path: path, reason: BlobStore.errorText())
            }
        } else if info.st_size > 0 {
            var buffer = [UInt8](repeating: 0, count: BlobStore.bufferSize)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else {
                    throw StoreError.io(operation: "reading", path: path, reason: BlobStore.errorText())
                }
                if n == 0 { break }
                buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                size += Int64(n)
            }
        }
        guard lseek(fd, off_t(size), SEEK_SET) == off_t(size) else {
            throw StoreError.io(operation: "seeking in", path: path, reason: BlobStore.errorText())
        }
    }

    /// Appends the next bytes of the data.
    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard fd >= 0 else { throw StoreError.invalid("the partial file of \(hash.prefix(12)) is closed") }
        guard size + Int64(bytes.count) <= expectedSize else {
            throw StoreError.invalid(
                "photo data \(hash.prefix(12)) would exceed its announced size of \(expectedSize) bytes")
        }
        if startsDirectly {
            startsDirectly = false
            direct = DirectWriter(path: path, offset: size)
        }
        if let direct {
            do {
                try direct.append(bytes)
            } catch let refused as DirectWriter.Refused {
                self.direct = nil
                try writeAt(refused.offset, refused.pending)
            }
        } else {
            try BlobStore.writeAll(fd, bytes, path)
        }
        hasher.update(bytes)
        size += Int64(bytes.count)
        if direct == nil && size - writtenBack >= Self.writeBackBytes {
            // Best effort: the sync at publish makes the data durable whatever happens here.
            _ = sync_file_range(fd, writtenBack, size - writtenBack, Self.startWriting)
            writtenBack = size
        }
    }

    /// Bytes received after which the disk starts writing them, while more arrive: the
    /// disk works beside the transfer instead of after it, and a large photo never holds
    /// more than this much unwritten memory of its own.
    static let writeBackBytes: Int64 = 8 << 20
    /// Photos with at least this much data still to come are written past the page cache.
    static let directBytes: Int64 = 8 << 20
    /// SYNC_FILE_RANGE_WRITE: start writing back, do not wait.
    private static let startWriting: UInt32 = 2

    public func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try append($0) }
    }

    /// Verifies the hash and, when it matches, moves the data into the store. The partial
    /// file is gone afterwards either way. One fsync per call: to store many photos, verify
    /// them and publish them together with `BlobStore.publish(_:)` (one sync for all).
    public func commit() throws -> Outcome {
        guard try verify() else { return .mismatch }
        if let error = BlobStore.publish([self])[0] { throw error }
        return .stored
    }

    /// Checks the data against its hash and closes the file. False (and the partial file
    /// deleted) when it does not match; when it does, `publish` makes it visible.
    public func verify() throws -> Bool {
        guard fd >= 0 else { throw StoreError.invalid("the partial file of \(hash.prefix(12)) is closed") }
        try flushDirect()
        guard SHA256Hasher.hex(hasher.finish()) == hash else {
            discard()
            return false
        }
        close()
        isVerified = true
        return true
    }

    var storeRoot: String { store.root }

    /// The data goes past the page cache (for tests).
    var writesPastThePageCache: Bool { direct != nil }

    /// Moves verified, already durable data under its hash.
    func rename() throws {
        precondition(isVerified, "only verified data is published")
        try store.place(path, as: hash)
    }

    /// Writes what the direct writer still holds, and goes on without it.
    private func flushDirect() throws {
        guard let direct else { return }
        self.direct = nil
        try writeAt(direct.offset, direct.finish())
    }

    /// Writes `bytes` at `offset` through the page cache: what a direct writer handed back.
    private func writeAt(_ offset: Int64, _ bytes: [UInt8]) throws {
        guard lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw StoreError.io(operation: "seeking in", path: path, reason: BlobStore.errorText())
        }
        try bytes.withUnsafeBytes { try BlobStore.writeAll(fd, $0, path) }
    }

    /// Stops writing, keeping the partial file for a later resume.
    public func close() {
        // Best effort: what is not written is received again on resume.
        if fd >= 0 {
            try? flushDirect()
            Glibc.close(fd)
        }
        fd = -1
    }

    /// Stops writing and deletes the partial file.
    public func discard() {
        close()
        unlink(path)
    }
}
