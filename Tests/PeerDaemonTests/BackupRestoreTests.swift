import ControlProtocol
import Foundation
import Glibc
import Support
import Synchronization
import TestSupport
import Testing

/// `peershare backup DIR` of a running daemon, and `peershared --restore DIR`.
@Suite(.onOwnThreads) struct BackupRestoreTests {
    /// Each photo as the list shows it, by ID.
    private func photos(_ list: JSON) -> [String: JSON] {
        var byID: [String: JSON] = [:]
        for photo in list.arrayValue ?? [] { byID[photo["id"]?.stringValue ?? ""] = photo }
        return byID
    }

    @Test func aBackupDuringWritesRestoresToTheSameLibraryThatStillSyncsWithItsPeer() throws {
        let peers = try SharingPeers()
        let shared = try peers.shareBeach()
        let alice = peers.alice
        for index in 0..<10 {
            _ = try alice.addPhoto("before\(index).jpg", bytes: randomBytes(20_000), tags: ["before"])
        }
        let before = photos(try alice.json("photo", "list"))
        // A writer keeps adding tagged photos through the CLI while the backup runs.
        let stop = Mutex(false)
        let writer = IOThread.start(name: "writer") {
            var index = 0
            while !stop.withLock({ $0 }) {
                _ = try? alice.addPhoto("during\(index).jpg", bytes: randomBytes(5_000), tags: ["during"])
                index += 1
            }
        }
        let backup = alice.directory.file("backup")
        let result = try alice.json("backup", backup)
        stop.withLock { $0 = true }
        writer.join()
        let after = photos(try alice.json("photo", "list"))
        try alice.stop()

        let restored = try TestDirectory()
        let state = restored.file("state")
        let restore = try ChildProcess(
            executable: try Products.path("peershared"),
            arguments: ["--restore", backup, "--state-dir", state],
            environment: DaemonProcess.baseEnvironment(restored), directory: restored, label: "restore")
        #expect(try restore.waitForExit() == 0, "\(restore.stderr)")
        let daemon = try DaemonProcess.startReady(in: restored, stateDirectory: state)
        let back = photos(try daemon.json("photo", "list"))
        #expect(back.count == result["photos"]?.intValue)
        // Everything from before the backup is there, and every photo restored is as it was.
        #expect(Set(before.keys).isSubset(of: Set(back.keys)))
        for (id, photo) in back { #expect(after[id] == photo, "\(id)") }
        for id in back.keys.sorted().prefix(3) where back[id]?["pending"] == false {
            let out = restored.file("\(id).out")
            _ = try daemon.json("photo", "export", id, out)
            #expect(try Data(contentsOf: URL(fileURLWithPath: out)).count == back[id]?["size"]?.intValue)
            #expect(
                sha256Hex(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
                    == back[id]?["sha256"]?.stringValue)
        }
        #expect(try daemon.json("id")["peer_id"] == .string(alice.id))

        // It is the same device to bob: a tag each way reaches the other.
        _ = try peers.bob.json("tag", "add", shared.photo, "from-bob")
        _ = try daemon.json("tag", "add", shared.photo, "from-restored")
        try waitUntil("both tags at both", timeout: .seconds(60)) {
            let names = { (photo: JSON) in
                Set((photo["tags"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
            }
            _ = try? daemon.cli("sync")
            _ = try? peers.bob.cli("sync")
            guard let atRestored = try? daemon.json("photo", "show", shared.photo),
                let atBob = try? peers.bob.json("photo", "show", shared.photo)
            else { return false }
            return names(atRestored).isSuperset(of: ["from-bob", "from-restored"])
                && names(atBob).isSuperset(of: ["from-bob", "from-restored"])
        }
        try daemon.stop()
        try peers.bob.stop()
        try peers.carol.stop()
    }

    @Test func aBackupIntoANonEmptyDirectoryIsRefused() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let target = try directory.makeDirectory("full")
        _ = try directory.write("full/x", "x")
        let error = try daemon.refusal("backup", target)
        #expect(error.code.rawValue == "not_empty")
        #expect(error.message == "\(target) is not empty: back up into a new or empty directory")
    }

    @Test func restoreRefusesANonEmptyStateDirectoryAndACorruptedBackup() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        _ = try daemon.addPhoto(try directory.write("a.jpg", bytes: randomBytes(1_000)))
        let backup = directory.file("backup")
        _ = try daemon.json("backup", backup)
        var info = stat()
        #expect(stat(backup + "/identity/identity.key", &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(backup + "/library", &info) == 0 && info.st_mode & 0o777 == 0o700)

        let restore = { (state: String) throws -> (Int32, String) in
            let child = try ChildProcess(
                executable: try Products.path("peershared"),
                arguments: ["--restore", backup, "--state-dir", state],
                environment: DaemonProcess.baseEnvironment(directory), directory: directory,
                label: "restore-\(UUID().uuidString.prefix(6))")
            return (try child.waitForExit(), child.stderr)
        }
        let (status, message) = try restore(daemon.stateDirectory)
        #expect(status == 1)
        #expect(message.contains("the state directory \(daemon.stateDirectory) is not empty"))

        // One byte of a store changed: refused, and the state directory stays empty.
        let store = backup + "/library/private.sqlite"
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: store)))
        bytes[bytes.count - 100] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: store))
        let fresh = directory.file("fresh")
        let (corrupt, why) = try restore(fresh)
        #expect(corrupt == 1)
        #expect(why.contains("is not a usable backup") && why.contains("library/private.sqlite"), "\(why)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fresh) == [])
    }
}
