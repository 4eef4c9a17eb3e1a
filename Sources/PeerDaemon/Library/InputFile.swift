import Glibc
import Store

/// Checks on a file a person names before the daemon reads it, so that what cannot be a
/// photo is refused at once instead of blocking or filling the disk.
///
/// Opening a named pipe blocks until someone writes to it, and a device such as
/// `/dev/zero` never ends: both are refused here as not regular files. Missing files and
/// directories are left to the store, which names them in its own words.
enum InputFile {
    /// Throws for an existing path that is neither a regular file nor a directory.
    static func requireRegularOrMissing(_ path: String) throws(StoreError) {
        guard let mode = fileType(path) else { return }
        if mode != S_IFREG && mode != S_IFDIR {
            throw .unreadableFile(path: path, reason: "it is not a regular file")
        }
    }

    /// The size of a regular file, or nil.
    static func size(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Reads a thumbnail of at most `limit` bytes into memory, refusing a bigger one before
    /// reading it.
    static func readThumbnail(_ path: String, limit: Int) throws(StoreError) -> [UInt8] {
        if fileType(path) == S_IFDIR { throw .unreadableFile(path: path, reason: "it is a directory") }
        try requireRegularOrMissing(path)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadableFile(path: path, reason: errorText()) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_size > limit { throw tooLarge(Int(info.st_size), limit) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .unreadableFile(path: path, reason: errorText()) }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            // The file may grow while it is read: the limit holds for what is read.
            if bytes.count > limit { throw tooLarge(bytes.count, limit) }
        }
    }

    private static func tooLarge(_ size: Int, _ limit: Int) -> StoreError {
        .invalid(
            "the thumbnail is \(size) bytes, over the limit of \(limit) bytes (max_thumbnail_bytes in the config)"
        )
    }

    /// `S_IFREG`, `S_IFDIR`, … of what `path` names (following links), or nil.
    private static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
