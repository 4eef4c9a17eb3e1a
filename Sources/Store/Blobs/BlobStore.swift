import Glibc
import Support
import Synchronization

/// Full-size photo data on disk, content-addressed by SHA-256, outside the database rows.
///
/// Data is read and written as streams through a fixed buffer, so a 1 GB photo never sits
/// in memory; a blob becomes visible only by an atomic rename after its bytes are on disk
/// and fsynced, so a crash or a full disk never leaves a half-written photo behind.
public final class BlobStore: Sendable {
    public let root: String
    static let bufferSize = 1 << 20
    /// Backups in progress and the removals they put off (see `BlobStore+Hold.swift`).
    let holds = Mutex(BlobHolds())

    public init(root: String) throws {
        self.root = root
        try Self.makeDirectory(root)
        try Self.makeDirectory(root + "/tmp")
    }

    /// Where the blob with this hex hash lives.
    public func path(for hash: String) -> String {
        "\(root)/\(hash.prefix(2))/\(hash)"
    }

    public func contains(_ hash: String) -> Bool {
        access(path(for: hash), F_OK) == 0
    }

    /// Copies the file at `source` into the store; returns its hash and size. A file that
    /// changes while it is read is refused (see `FileSnapshot`) and nothing is kept.
    public func importFile(at source: String, limit: Int64) throws -> (hash: String, size: Int64) {
        let (input, info) = try Self.openPhotoFile(source, limit: limit)
        defer { close(input) }
        let writer = try BlobWriter(store: self)
        do {
            var buffer = [UInt8](repeating: 0, count: Self.bufferSize)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw StoreError.unreadableFile(path: source, reason: Self.errorText())
                }
                if n == 0 { break }
                if writer.size + Int64(n) > limit {
                    throw StoreError.photoTooLarge(size: writer.size + Int64(n), limit: limit)
                }
                try buffer.withUnsafeBytes { try writer.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            }
            if let change = FileSnapshot.changeDuringRead(
                before: FileSnapshot(info), descriptor: .of(descriptor: input), path: .of(path: source),
                bytesRead: writer.size)
            {
                throw StoreError.unreadableFile(
                    path: source,
                    reason: "it changed while it was being read (\(change)), so nothing was added: "
                        + "add it again once nothing writes to it")
            }
            return try writer.commit()
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// Opens a file a person names as a photo: refused unless it is a regular file of at most
    /// `limit` bytes. The caller closes the descriptor.
    static func openPhotoFile(_ source: String, limit: Int64) throws -> (Int32, stat) {
        // O_NONBLOCK: opening a named pipe must not hang; anything but a regular file is refused.
        let input = open(source, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard input >= 0 else { throw StoreError.unreadableFile(path: source, reason: Self.errorText()) }
        var info = stat()
        do {
            guard fstat(input, &info) == 0 else {
                throw StoreError.unreadableFile(path: source, reason: Self.errorText())
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                throw StoreError.unreadableFile(path: source, reason: "it is a directory")
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw StoreError.unreadableFile(path: source, reason: "it is not a regular file")
            }
            if Int64(info.st_size) > limit {
                throw StoreError.photoTooLarge(size: Int64(info.st_size), limit: limit)
            }
        } catch {
            close(input)
            throw error
        }
        return (input, info)
    }

    /// The SHA-256 (hex) of a photo file, read once without storing anything: what tells a
    /// file already in the library before its data is copied.
    public static func digest(ofFile source: String, limit: Int64) throws -> String {
        let (input, _) = try openPhotoFile(source, limit: limit)
        defer { close(input) }
        let hasher = SHA256Hasher()
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        var size: Int64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw StoreError.unreadableFile(path: source, reason: errorText())
            }
            if n == 0 { return SHA256Hasher.hex(hasher.finish()) }
            size += Int64(n)
            if size > limit { throw StoreError.photoTooLarge(size: size, limit: limit) }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
    }

    /// Stores `bytes` (small data, such as in tests); returns hash and size.
    public func store(_ bytes: [UInt8]) throws -> (hash: String, size: Int64) {
        let writer = try BlobWriter(store: self)
        do {
            try bytes.withUnsafeBytes { try writer.append($0) }
            return try writer.commit()
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// Copies the blob to `destination`, atomically (temp file + rename).
    public func export(_ hash: String, to destination: String) throws {
        let input = open(path(for: hash), O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw StoreError.io(
                operation: "reading photo data", path: path(for: hash), reason: Self.errorText())
        }
        defer { close(input) }
        let temp = destination + ".peershare-partial"
        var output = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            throw StoreError.io(operation: "creating", path: temp, reason: Self.errorText())
        }
        do {
            var buffer = [UInt8](repeating: 0, count: Self.bufferSize)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else {
                    throw StoreError.io(operation: "reading", path: path(for: hash), reason: Self.errorText())
                }
                if n == 0 { break }
                try buffer.withUnsafeBytes {
                    try Self.writeAll(output, UnsafeRawBufferPointer(rebasing: $0[0..<n]), temp)
                }
            }
            guard fsync(output) == 0 else {
                throw StoreError.io(operation: "syncing", path: temp, reason: Self.errorText())
            }
            close(output)
            output = -1
            guard rename(temp, destination) == 0 else {
                throw StoreError.io(operation: "renaming to", path: destination, reason: Self.errorText())
            }
        } catch {
            if output >= 0 { close(output) }
            unlink(temp)
            throw error
        }
    }

    /// Removes a blob no row refers to any more.
    public func remove(_ hash: String) {
        unlink(path(for: hash))
    }

    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, _ path: String) throws {
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw StoreError.io(operation: "writing", path: path, reason: errorText())
            }
            offset += n
        }
    }

    /// Moves a finished temp file under its hash. The hash's directory is made only when the
    /// rename finds it missing, not before every photo (a syscall each, all but 256 of them
    /// for nothing).
    func place(_ temp: String, as hash: String) throws {
        let final = path(for: hash)
        if rename(temp, final) == 0 { return }
        if errno == ENOENT {
            try Self.makeDirectory("\(root)/\(hash.prefix(2))")
            if rename(temp, final) == 0 { return }
        }
        throw StoreError.io(operation: "renaming into", path: final, reason: Self.errorText())
    }

    static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw StoreError.io(operation: "creating directory", path: path, reason: errorText())
        }
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}

/// A blob being written: bytes go to a temp file and through the hasher; `commit` fsyncs
/// and renames it into place under its hash.
public final class BlobWriter {
    let store: BlobStore
    let tempPath: String
    private var fd: Int32
    private let hasher = SHA256Hasher()
    public private(set) var size: Int64 = 0

    public init(store: BlobStore) throws {
        self.store = store
        var template = Array("\(store.root)/tmp/blob-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw StoreError.io(
                operation: "creating temp file in", path: store.root, reason: BlobStore.errorText())
        }
        self.fd = fd
        self.tempPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    public func append(_ buffer: UnsafeRawBufferPointer) throws {
        try BlobStore.writeAll(fd, buffer, tempPath)
        hasher.update(buffer)
        size += Int64(buffer.count)
    }

    /// Makes the blob visible under its hash; returns hash and size.
    public func commit() throws -> (hash: String, size: Int64) {
        guard fsync(fd) == 0 else {
            throw StoreError.io(operation: "syncing", path: tempPath, reason: BlobStore.errorText())
        }
        close(fd)
        fd = -1
        let hash = SHA256Hasher.hex(hasher.finish())
        do {
            try store.place(tempPath, as: hash)
        } catch {
            unlink(tempPath)
            throw error
        }
        return (hash, size)
    }

    /// Throws the partial data away.
    public func abandon() {
        if fd >= 0 { close(fd) }
        fd = -1
        unlink(tempPath)
    }

    deinit { if fd >= 0 { abandon() } }
}
