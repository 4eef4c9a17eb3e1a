import Glibc

/// A small random secret kept in a file of mode 0600, created on first use (temp file,
/// fsync, rename), such as the key share-URL tokens are derived from.
enum SecretFile {
    static func loadOrCreate(path: String, bytes count: Int = 32) throws -> [UInt8] {
        if let existing = try read(path) {
            guard existing.count == count else {
                throw StoreError.io(
                    operation: "reading secret", path: path,
                    reason: "it has \(existing.count) bytes, expected \(count); remove it to make a new one "
                        + "(share URLs handed out so far stop working)")
            }
            return existing
        }
        var secret = [UInt8](repeating: 0, count: count)
        var rng = SystemRandomNumberGenerator()
        for i in secret.indices { secret[i] = UInt8.random(in: 0...255, using: &rng) }
        let temp = path + ".tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError.io(operation: "creating", path: temp, reason: BlobStore.errorText())
        }
        defer { close(fd) }
        try secret.withUnsafeBytes { try BlobStore.writeAll(fd, $0, temp) }
        guard fsync(fd) == 0, rename(temp, path) == 0 else {
            throw StoreError.io(operation: "saving", path: path, reason: BlobStore.errorText())
        }
        return secret
    }

    private static func read(_ path: String) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw StoreError.io(operation: "opening", path: path, reason: BlobStore.errorText())
        }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else {
            throw StoreError.io(operation: "reading", path: path, reason: BlobStore.errorText())
        }
        return Array(buffer.prefix(n))
    }
}
