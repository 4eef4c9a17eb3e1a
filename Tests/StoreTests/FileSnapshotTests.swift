import Foundation
import Glibc
import TestSupport
import Testing

@testable import Store

/// The check that refuses a copy of a file that changed while it was read: its rules on
/// given snapshots, then on a real file changed between the two looks.
@Suite struct FileSnapshotTests {
    static let before = FileSnapshot(
        device: 1, inode: 7, size: 1000, modifiedSeconds: 100, modifiedNanoseconds: 5)

    static func changed(
        inode: UInt64 = 7, size: Int64 = 1000, seconds: Int64 = 100, nanoseconds: Int64 = 5
    ) -> FileSnapshot {
        FileSnapshot(
            device: 1, inode: inode, size: size, modifiedSeconds: seconds, modifiedNanoseconds: nanoseconds)
    }

    @Test(
        arguments: [
            (changed(), changed(), 1000, nil),
            (changed(size: 10), changed(size: 10), 10, "its size went from 1000 to 10 bytes"),
            (changed(size: 2000), changed(size: 2000), 2000, "its size went from 1000 to 2000 bytes"),
            (changed(), changed(), 400, "400 bytes were read of the 1000 it had"),
            (changed(nanoseconds: 6), changed(nanoseconds: 6), 1000, "it was modified"),
            (changed(seconds: 101), changed(seconds: 101), 1000, "it was modified"),
            (changed(), changed(inode: 8), 1000, "it was replaced by another file"),
        ] as [(FileSnapshot, FileSnapshot, Int64, String?)])
    func theRules(descriptor: FileSnapshot, path: FileSnapshot, bytesRead: Int64, expected: String?) {
        #expect(
            FileSnapshot.changeDuringRead(
                before: Self.before, descriptor: descriptor, path: path, bytesRead: bytesRead) == expected)
    }

    @Test func aFileWhosePathIsGoneCountsAsReplaced() {
        #expect(
            FileSnapshot.changeDuringRead(
                before: Self.before, descriptor: Self.before, path: nil, bytesRead: 1000)
                == "it was replaced by another file")
    }

    /// Opens a fresh 4096-byte file, snapshots it, applies `change`, and returns what the
    /// check says about a complete read of the original size.
    private func verdict(_ change: (String, Int32) throws -> Void) throws -> String? {
        let dir = try TestDirectory()
        let path = try dir.write("photo.jpg", bytes: [UInt8](repeating: 7, count: 4096))
        let fd = open(path, O_RDWR | O_CLOEXEC)
        defer { close(fd) }
        let before = try #require(FileSnapshot.of(descriptor: fd))
        try change(path, fd)
        return FileSnapshot.changeDuringRead(
            before: before, descriptor: .of(descriptor: fd), path: .of(path: path), bytesRead: 4096)
    }

    @Test func aRealFileUnchangedPasses() throws {
        #expect(try verdict { _, _ in } == nil)
    }

    @Test func aRealFileTruncatedAppendedRewrittenOrReplacedIsCaught() throws {
        #expect(try verdict { _, fd in _ = ftruncate(fd, 100) } == "its size went from 4096 to 100 bytes")
        #expect(
            try verdict { _, fd in _ = pwrite(fd, [UInt8](repeating: 1, count: 10), 10, 4096) }
                == "its size went from 4096 to 4106 bytes")
        // Same size, new content: the modification time (set apart explicitly, as a write
        // within one clock tick could keep it) tells.
        #expect(
            try verdict { _, fd in
                _ = pwrite(fd, [UInt8](repeating: 1, count: 10), 10, 0)
                var times = [timespec(tv_sec: 5, tv_nsec: 1), timespec(tv_sec: 5, tv_nsec: 1)]
                _ = futimens(fd, &times)
            } == "it was modified")
        #expect(
            try verdict { path, _ in
                let other = path + ".new"
                FileManager.default.createFile(atPath: other, contents: Data(count: 4096))
                _ = rename(other, path)
            } == "it was replaced by another file")
    }
}
