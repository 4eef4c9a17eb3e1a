import ControlProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// Progress of long copies: `progress` events before the response when asked for, and the
/// CLI's line on stderr only when stderr is a terminal.
@Suite(.onOwnThreads) struct ProgressTests {
    /// Reads lines up to the response; returns the events before it and the response.
    private func readUntilResponse(_ client: RawControlClient) throws -> (events: [JSON], response: JSON) {
        var events: [JSON] = []
        while true {
            let line = try client.readJSON()
            guard let event = line["event"] else { return (events, line) }
            events.append(event)
        }
    }

    /// Checks a run of progress events: from 0 to `total`, never going back.
    private func expectProgress(_ events: [JSON], total: Int, id: JSON) {
        #expect(events.allSatisfy { $0["type"] == "progress" })
        let counts = events.compactMap { $0["data"]?["bytes"]?.intValue }
        #expect(counts.count == events.count && counts.count >= 2)
        #expect(counts.first == 0 && counts.last == total)
        #expect(counts == counts.sorted())
        #expect(events.allSatisfy { $0["data"]?["total"] == .int(total) })
    }

    @Test func addAndExportSendProgressEventsBeforeTheirResponse() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let bytes = randomBytes(3 << 20)
        let file = try directory.write("a.jpg", bytes: bytes)
        let client = try RawControlClient(path: daemon.socketPath)

        try client.send(
            #"{"id": "add", "command": "photo.add", "args": {"file": "\#(file)", "progress": true}}"#)
        let (addEvents, added) = try readUntilResponse(client)
        expectProgress(addEvents, total: bytes.count, id: "add")
        #expect(added["id"] == "add" && added["ok"] == true)
        let id = try #require(added["result"]?["id"]?.stringValue)

        let out = directory.file("out.jpg")
        try client.send(
            #"{"id": 2, "command": "photo.export", "args": {"photo": "\#(id)", "file": "\#(out)", "progress": true}}"#
        )
        let (exportEvents, exported) = try readUntilResponse(client)
        expectProgress(exportEvents, total: bytes.count, id: 2)
        #expect(exported["ok"] == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(bytes))

        // Without the flag there is nothing before the response; a refusal sends no progress.
        try client.send(#"{"id": 3, "command": "photo.add", "args": {"file": "\#(file)"}}"#)
        #expect(try client.readJSON()["ok"] == true)
        try client.send(
            #"{"id": 4, "command": "photo.add", "args": {"file": "/nonexistent", "progress": true}}"#)
        let (none, refused) = try readUntilResponse(client)
        #expect(none.isEmpty)
        #expect(refused["error"]?["code"] == "unreadable_file")
    }

    @Test func theCLIShowsProgressOnlyWhenStderrIsATerminal() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let file = try directory.write("a.jpg", bytes: randomBytes(2 << 20))
        let quiet = try daemon.cli("photo", "add", file)
        #expect(quiet.status == 0 && quiet.stderr == "")
        #expect(quiet.stdout.count == 37)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func onATerminalTheProgressLineIsDrawnAndErasedBeforeTheResult() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let file = try directory.write("a.jpg", bytes: randomBytes(2 << 20))
        // script(1) runs the CLI on a pseudo-terminal and copies what it shows to stdout.
        let command = "\(try Products.path("peershare")) --socket \(daemon.socketPath) photo add \(file)"
        let terminal = try ChildProcess(
            executable: "/usr/bin/script", arguments: ["-qec", command, "/dev/null"],
            environment: DaemonProcess.baseEnvironment(directory), directory: directory, label: "script")
        #expect(try terminal.waitForExit() == 0)
        let id = try #require(try daemon.json("photo", "list")[0]?["id"]?.stringValue)
        let shown = terminal.stdout
        #expect(
            shown.hasPrefix("\rphoto add: 0 of 1 file, 0 B of 2.0 MiB\u{1B}[K"), "\(shown.debugDescription)")
        #expect(shown.contains("\rphoto add: 0 of 1 file, 2.0 MiB of 2.0 MiB\u{1B}[K"))
        #expect(shown.hasSuffix("\r\u{1B}[K\(id)\r\n"), "\(shown.debugDescription)")
    }
}
