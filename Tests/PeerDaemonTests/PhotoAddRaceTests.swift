import ControlProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// `photo add` of a file that someone truncates while the daemon reads it: refused with a
/// clear error, and nothing of it is stored.
///
/// A real race, made reliable: the file is a 2 GiB sparse file, so reading it takes the
/// daemon seconds, and the test truncates it the moment the daemon has it open (seen in
/// `/proc/PID/fd`), long before the read can end. (Appending is not raced here: the daemon
/// would read the whole 2 GiB first; `FileSnapshotTests` covers it on a real file.)
@Suite(.onOwnThreads) struct PhotoAddRaceTests {
    static let size: Int64 = 2 << 30

    @Test func aFileTruncatedWhileItIsReadIsRefusedAndNothingIsStored() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let file = directory.file("big.jpg")
        let fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        defer { close(fd) }
        let head = randomBytes(1 << 20)
        #expect(pwrite(fd, head, head.count, 0) == head.count)
        #expect(ftruncate(fd, off_t(Self.size)) == 0)
        let before = try daemon.snapshot()

        let add = try daemon.startCLI("photo", "add", file, label: "add")
        try waitUntil("peershared to open \(file)", timeout: .seconds(60)) {
            Self.isOpen(file, by: daemon.pid) || !add.isRunning
        }
        #expect(ftruncate(fd, 1 << 20) == 0)

        #expect(try add.waitForExit(timeout: .seconds(120)) == 1)
        #expect(
            add.stderr
                == "peershare: cannot read \(file): it changed while it was being read (its size went from "
                + "\(Self.size) to 1048576 bytes), so nothing was added: add it again once nothing "
                + "writes to it\n")
        #expect(try daemon.snapshot() == before)
        #expect(files(under: daemon.blobDirectory()) == [])
        #expect(try daemon.json("ping") == ["pong": true])
    }

    /// Whether process `pid` has `path` open.
    private static func isOpen(_ path: String, by pid: Int32) -> Bool {
        let fds = "/proc/\(pid)/fd"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? [] {
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + name)) == path {
                return true
            }
        }
        return false
    }
}
