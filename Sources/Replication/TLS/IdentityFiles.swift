import Glibc

/// The few POSIX file operations an identity needs, done carefully: private modes,
/// atomic replacement and durable writes, so a crash never leaves half a key on disk.
enum IdentityFiles {
    static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// Creates `path` and any missing parents; the last component gets mode 0700. An
    /// existing directory is left as it is.
    static func makeDirectory(_ path: String) throws(IdentityError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        let parts = path.split(separator: "/")
        for (index, part) in parts.enumerated() {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            let isLast = index == parts.count - 1
            if mkdir(prefix, isLast ? 0o700 : 0o755) != 0 && errno != EEXIST {
                throw .directoryUnusable(path: prefix, reason: errnoText())
            }
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .directoryUnusable(path: path, reason: errnoText()) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .directoryUnusable(path: path, reason: "it exists but is not a directory")
        }
    }

    /// Returns the file's permission bits, or nil when it does not exist.
    static func mode(of path: String) throws(IdentityError) -> UInt32? {
        var info = stat()
        if stat(path, &info) == 0 { return info.st_mode & 0o7777 }
        if errno == ENOENT { return nil }
        throw .unreadable(path: path, reason: errnoText())
    }

    static func read(_ path: String) throws(IdentityError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: errnoText()) }
        defer { close(fd) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(path: path, reason: errnoText()) }
            if count == 0 { break }
            contents += chunk[0..<count]
            // Identity files are a few hundred bytes; anything huge is not ours.
            guard contents.count <= 1 << 20 else {
                throw .unreadable(path: path, reason: "file is larger than 1 MiB")
            }
        }
        return contents
    }

    /// Writes `bytes` to `path` with mode 0600: temp file, fsync, rename, fsync of the
    /// directory. Readers see either the old file or the complete new one.
    static func writeAtomically(_ bytes: [UInt8], to path: String, directory: String) throws(IdentityError) {
        let temp = path + ".tmp-\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .unwritable(path: temp, reason: errnoText()) }
        var failure: String?
        // The umask can only remove bits; fchmod makes the mode exactly 0600 regardless.
        if fchmod(fd, 0o600) != 0 { failure = errnoText() }
        var written = 0
        while failure == nil && written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { failure = errnoText() } else { written += count }
        }
        if failure == nil && fsync(fd) != 0 { failure = errnoText() }
        if close(fd) != 0 && failure == nil { failure = errnoText() }
        if failure == nil && rename(temp, path) != 0 { failure = errnoText() }
        if let failure {
            unlink(temp)
            throw .unwritable(path: path, reason: failure)
        }
        syncDirectory(directory)
    }

    /// Makes a rename durable. Best effort: some file systems refuse fsync on directories.
    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
