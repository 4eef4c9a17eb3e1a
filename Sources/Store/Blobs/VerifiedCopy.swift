import Glibc
import Support

/// Copies one file into a new one of mode 0600, hashing what it copies: how backups take
/// photo data, stores and keys out, and how a restore puts them back, checking each against
/// the hash it is known by.
///
/// Not synced: a backup or restore copies many files and syncs the file system once at the
/// end (`syncFileSystem`).
public enum VerifiedCopy {
    /// Copies `source` to `destination` (which must not exist); returns the SHA-256 (hex) and
    /// size of what was copied. With `expected`, a copy whose hash differs is removed and
    /// refused. `copied` is told each chunk's size, for progress.
    @discardableResult
    public static func copy(
        _ source: String, to destination: String, expected: String? = nil, copied: (Int) -> Void = { _ in }
    ) throws -> (sha256: String, size: Int64) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw StoreError.io(operation: "reading", path: source, reason: BlobStore.errorText())
        }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            throw StoreError.io(operation: "creating", path: destination, reason: BlobStore.errorText())
        }
        do {
            defer { close(output) }
            _ = fchmod(output, 0o600)
            let hasher = SHA256Hasher()
            var size: Int64 = 0
            var buffer = [UInt8](repeating: 0, count: BlobStore.bufferSize)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else {
                    throw StoreError.io(operation: "reading", path: source, reason: BlobStore.errorText())
                }
                if n == 0 { break }
                try buffer.withUnsafeBytes { raw in
                    let chunk = UnsafeRawBufferPointer(rebasing: raw[0..<n])
                    try BlobStore.writeAll(output, chunk, destination)
                    hasher.update(chunk)
                }
                size += Int64(n)
                copied(n)
            }
            let digest = SHA256Hasher.hex(hasher.finish())
            if let expected, digest != expected {
                throw StoreError.io(
                    operation: "checking", path: source,
                    reason:
                        "its SHA-256 is \(digest), not the \(expected) it should have: the file is damaged")
            }
            return (digest, size)
        } catch {
            unlink(destination)
            throw error
        }
    }

    /// Creates a directory of mode 0700 (an existing one is left as it is).
    public static func makeDirectory(_ path: String) throws {
        try BlobStore.makeDirectory(path)
    }

    /// Flushes the file system holding `path`: one sync for everything copied.
    public static func syncFileSystem(of path: String) throws {
        if let error = BlobStore.syncFilesystem(of: path) { throw error }
    }
}
