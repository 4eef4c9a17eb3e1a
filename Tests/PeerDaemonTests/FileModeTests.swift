import ControlProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// Every store file (with its `-wal` and `-shm`), photo data file and key is mode 0600 and
/// every directory 0700, for a new library and for one an earlier version left open.
@Suite(.onOwnThreads) struct FileModeTests {
    @Test func everyFileUnderTheStateDirectoryIsPrivateWhileTheDaemonRuns() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let photo = try daemon.addPhoto(
            try directory.write("a.jpg", bytes: randomBytes(50_000)), "--tag", "sun", "--thumbnail",
            try directory.write("t.jpg", bytes: randomBytes(2048)))
        _ = try daemon.json("share", "create", photo)
        _ = try daemon.addPhoto(try directory.write("b.jpg", bytes: randomBytes(10)))

        let modes = Self.modes(under: daemon.stateDirectory)
        // The files the rule is about are there while the daemon runs: both stores with
        // their write-ahead logs and shared memory, photo data, the keys.
        for expected in [
            "library/private.sqlite", "library/private.sqlite-wal", "library/private.sqlite-shm",
            "library/shared.sqlite", "library/shared.sqlite-wal", "library/shared.sqlite-shm",
            "library/invite.key", "identity/identity.key", "identity/identity.crt",
        ] {
            #expect(modes[expected] != nil, "missing \(expected) in \(modes.keys.sorted())")
        }
        #expect(modes.keys.contains { $0.hasPrefix("library/blobs/private/") && $0.count > 60 })
        Self.expectPrivate(modes)
    }

    @Test func aLibraryLeftReadableByOthersIsMadePrivateAtStart() throws {
        let directory = try TestDirectory()
        let first = try DaemonProcess.startReady(in: directory)
        let photo = try first.addPhoto(try directory.write("a.jpg", bytes: randomBytes(50_000)))
        // Killed, so the -wal and -shm files stay, as an earlier version would leave them.
        try first.kill()
        let before = Self.modes(under: first.stateDirectory)
        #expect(before["library/private.sqlite-wal"] != nil)
        for path in before.keys {
            let full = first.stateDirectory + "/" + path
            chmod(full, Self.isDirectory(full) ? 0o755 : 0o644)
        }
        chmod(first.stateDirectory, 0o755)

        let second = try first.restart(label: "second")
        try second.waitForLogLine(
            "<4>made files other users could read private", containing: "state_dir=\(first.stateDirectory)")
        Self.expectPrivate(Self.modes(under: second.stateDirectory))
        #expect(Self.mode(of: second.stateDirectory) == 0o700)
        #expect(try second.json("photo", "show", photo)["pending"] == false)
    }

    /// Every file 0600 and every directory 0700 (sockets and the like are not checked).
    private static func expectPrivate(_ modes: [String: mode_t]) {
        for (path, mode) in modes.sorted(by: { $0.key < $1.key }) {
            let wanted: mode_t = mode & S_IFMT == S_IFDIR ? 0o700 : 0o600
            #expect(mode & 0o7777 == wanted, "\(path) has mode \(String(mode & 0o7777, radix: 8))")
        }
    }

    /// `lstat` modes of the regular files and directories under `root`, by relative path.
    private static func modes(under root: String) -> [String: mode_t] {
        var found: [String: mode_t] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [:] }
        while let path = walker.nextObject() as? String {
            var info = stat()
            guard lstat(root + "/" + path, &info) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            if type == S_IFREG || type == S_IFDIR { found[path] = info.st_mode }
        }
        return found
    }

    private static func mode(of path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
