import ControlProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// A disk that fills up while a photo is written: a clear error, no photo row, no
/// half-written file, and the daemon carries on (SPEC §10).
@Suite(.onOwnThreads) struct DiskFullTests {
    @Test(.enabled(if: TmpfsMount.isAvailable, "mounting a tmpfs needs root"))
    func aPhotoThatDoesNotFitIsRefusedAndLeavesNothingBehind() throws {
        let directory = try TestDirectory()
        // Room for the two new stores: with 8 KiB pages each takes about half a MiB, and as
        // much again in its log.
        let disk = try TmpfsMount(at: directory.file("state"), size: "8m")
        let daemon = try DaemonProcess.startReady(in: directory, stateDirectory: disk.path)
        let before = try daemon.snapshot()
        let big = try directory.write("big.jpg", bytes: randomBytes(10_000_000))

        let error = try daemon.refusal("photo", "add", big)
        #expect(error.code == "io_error")
        let prefix = "writing \(daemon.blobDirectory())/tmp/blob-"
        #expect(error.message.hasPrefix(prefix), "\(error.message)")
        #expect(error.message.hasSuffix(" failed: No space left on device"), "\(error.message)")
        #expect(!error.message.dropFirst(prefix.count).contains("/"))

        #expect(try daemon.snapshot() == before)
        #expect(try daemon.json("photo", "list") == [])
        #expect(files(under: daemon.libraryDirectory + "/blobs") == [])
        #expect(try daemon.json("ping") == ["pong": true])

        // Once the photo fits, it goes in as usual.
        let small = randomBytes(10_000)
        let id = try daemon.addPhoto(try directory.write("small.jpg", bytes: small))
        #expect(try daemon.json("photo", "show", id)["sha256"] == .string(sha256Hex(small)))
        try daemon.stop()
        // Unmounted only now, after the daemon is gone.
        withExtendedLifetime(disk) {}
    }
}
