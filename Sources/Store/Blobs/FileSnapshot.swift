import Glibc

/// What tells one state of a file from another without reading it: its device and inode,
/// its size, and its modification time to the nanosecond.
///
/// Taken before and after a file is copied into the store: if anything moved, or the bytes
/// read are not the size the file had, the copy holds bytes that may never have been the
/// file's content all at once (a file truncated, appended to or rewritten while it was
/// read), and it is refused instead of stored.
public struct FileSnapshot: Sendable, Equatable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modifiedSeconds: Int64
    public let modifiedNanoseconds: Int64

    public init(
        device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64
    ) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    public init(_ info: stat) {
        self.init(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modifiedSeconds: Int64(info.st_mtim.tv_sec), modifiedNanoseconds: Int64(info.st_mtim.tv_nsec))
    }

    /// The snapshot of an open file, or nil when `fstat` fails.
    public static func of(descriptor fd: Int32) -> FileSnapshot? {
        var info = stat()
        return fstat(fd, &info) == 0 ? FileSnapshot(info) : nil
    }

    /// The snapshot of the file a path names now (following links), or nil.
    public static func of(path: String) -> FileSnapshot? {
        var info = stat()
        return stat(path, &info) == 0 ? FileSnapshot(info) : nil
    }

    /// Why a copy of `bytesRead` bytes, begun when the file looked like `before`, is not
    /// the file's content: the open file (`descriptor`) or the path (`path`, nil when it
    /// is gone) changed, or fewer or more bytes came than its size. Nil when it is.
    public static func changeDuringRead(
        before: FileSnapshot, descriptor: FileSnapshot?, path: FileSnapshot?, bytesRead: Int64
    ) -> String? {
        guard let descriptor else { return "its size could not be read again after reading it" }
        if descriptor.size != before.size {
            return "its size went from \(before.size) to \(descriptor.size) bytes"
        }
        if bytesRead != before.size {
            return "\(bytesRead) bytes were read of the \(before.size) it had"
        }
        if descriptor.modifiedSeconds != before.modifiedSeconds
            || descriptor.modifiedNanoseconds != before.modifiedNanoseconds
        {
            return "it was modified"
        }
        guard let path, path.device == before.device, path.inode == before.inode else {
            return "it was replaced by another file"
        }
        return nil
    }
}
