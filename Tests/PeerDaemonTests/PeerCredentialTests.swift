import ControlProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// Only the daemon's own user is served, even if the socket's mode were too open.
@Suite(.onOwnThreads) struct PeerCredentialTests {
    static let setpriv = "/usr/bin/setpriv"

    /// Needs root to run a client as another uid; skipped elsewhere.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: setpriv)))
    func anotherUserIsRefusedEvenThroughAWorldWritableSocket() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        // Open the way on purpose, so only the SO_PEERCRED check stands in between.
        chmod(directory.path, 0o711)
        chmod(daemon.socketPath, 0o666)
        let nobody = try ChildProcess(
            executable: Self.setpriv,
            arguments: [
                "--reuid=65534", "--regid=65534", "--clear-groups", try Products.path("peershare"), "--json",
                "--socket", daemon.socketPath, "id",
            ],
            environment: DaemonProcess.baseEnvironment(directory), directory: directory, label: "nobody")
        #expect(try nobody.waitForExit() == 1)
        let message = "peershared serves only its own user (uid 0), not uid 65534"
        #expect(
            JSONLine.decode(Data(nobody.stdout.utf8))
                == ["error": ["code": "permission_denied", "message": .string(message)]])
        #expect(nobody.stderr == "peershare: \(message)\n")
        try daemon.waitForLogLine(
            "<4>refused a control connection from another user", containing: "uid=65534")
        #expect(try daemon.json("ping") == ["pong": true])
    }
}
