import ControlProtocol
import Foundation
import TestSupport
import Testing

/// `--author NAME` (and the request's `author`): local clients name themselves, history
/// records their transactions as `local:NAME`, and `--exclude-author NAME` leaves one out.
@Suite(.onOwnThreads) struct HistoryAuthorTests {
    @Test func twoAppsFilterEachOthersTransactions() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let importer = try daemon.json(
            "--author", "importer", "photo", "add", try directory.write("a.jpg", bytes: randomBytes(10)))
        let photo = try #require(importer["id"]?.stringValue)
        // The second app names itself through the environment.
        let tagger = ["PEERSHARE_AUTHOR": "tagger"]
        #expect(try daemon.cli("tag", "add", photo, "sea", environment: tagger).status == 0)
        #expect(try daemon.cli("rate", photo, "4", environment: tagger).status == 0)
        #expect(try daemon.cli("--author", "importer", "photo", "rename", photo, "Beach").status == 0)
        #expect(try daemon.cli("tag", "add", photo, "plain").status == 0)

        let all = try #require(try daemon.json("history").arrayValue)
        #expect(
            all.map { $0["author"] } == [
                "local:importer", "local:tagger", "local:tagger", "local:importer", "local",
            ])
        let withoutImporter = try #require(
            try daemon.json("history", "--exclude-author", "importer").arrayValue)
        #expect(withoutImporter.map { $0["author"] } == ["local:tagger", "local:tagger", "local"])
        let withoutTagger = try #require(
            try daemon.json("history", "--exclude-author", "local:tagger").arrayValue)
        #expect(withoutTagger.map { $0["author"] } == ["local:importer", "local:importer", "local"])
        // `local` is every local command, named or not.
        #expect(try daemon.json("history", "--exclude-author", "local") == [])
        // The text output shows the author too.
        #expect(try daemon.cli("history", "--since", "1").stdout.contains("  private  local:tagger\n"))
        // A named client's entries are still this device's.
        #expect(all.allSatisfy { $0["device"] == all[4]["device"] })
    }

    @Test func watchEventsCarryTheClientsName() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let watch = try daemon.startCLI("--json", "watch", "--type", "history", label: "watch")
        try waitUntil("a watcher") { try daemon.json("status")["watchers"] == 1 }
        _ = try daemon.json(
            "--author", "importer", "photo", "add", try directory.write("a.jpg", bytes: randomBytes(10)))
        try waitUntil("the history event in:\n\(watch.stdout)", timeout: .seconds(60)) {
            watch.stdout.hasSuffix("\n")
        }
        let line = try #require(watch.stdout.split(separator: "\n").first)
        #expect(JSONLine.decode(Data(line.utf8))?["data"]?["author"] == "local:importer")
    }

    @Test func anInvalidAuthorIsRefusedAndNothingIsWritten() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let file = try directory.write("a.jpg", bytes: randomBytes(10))
        let cases: [(String, String)] = [
            ("", "author is empty: name the client, such as \"importer\""),
            (
                "sync",
                "author 'sync' is reserved: history uses local, dedup, purge, sync, sync:PEER_ID and "
                    + "refused:PEER_ID for its own authors; choose another name"
            ),
            (
                "sync:ABC",
                "author 'sync:ABC' is reserved: history uses local, dedup, purge, sync, sync:PEER_ID and "
                    + "refused:PEER_ID for its own authors; choose another name"
            ),
            (
                "dedup",
                "author 'dedup' is reserved: history uses local, dedup, purge, sync, sync:PEER_ID and "
                    + "refused:PEER_ID for its own authors; choose another name"
            ),
            (
                String(repeating: "x", count: 65),
                "author '\(String(repeating: "x", count: 64))…' is 65 bytes long: at most 64 bytes"
            ),
            (
                "a\tb",
                "author 'a\\u{9}b' holds a control or invisible character: use printable characters only"
            ),
        ]
        for (name, message) in cases {
            // The CLI refuses it before sending anything (a usage error)…
            let cli = try daemon.cli("--author", name, "photo", "add", file)
            #expect(cli.status == 2)
            #expect(cli.stderr.contains("--author: \(message)"), "\(cli)")
            // …and the daemon refuses a request carrying it, whatever the client.
            let raw = try RawControlClient(path: daemon.socketPath)
            let request: JSON = [
                "id": 1, "command": "photo.add", "args": ["file": .string(file)], "author": .string(name),
            ]
            let answer = try raw.request(JSONLine.string(request))
            #expect(answer["ok"] == false)
            #expect(answer["error"]?["code"] == "invalid_request")
            #expect(answer["error"]?["message"] == .string(message))
        }
        let raw = try RawControlClient(path: daemon.socketPath)
        let answer = try raw.request(#"{"id": 2, "command": "ping", "author": 7}"#)
        #expect(answer["error"]?["message"] == "\"author\" must be a string naming the client, got a number")
        let environment = try daemon.cli("photo", "add", file, environment: ["PEERSHARE_AUTHOR": "purge"])
        #expect(
            environment.status == 2
                && environment.stderr.contains("PEERSHARE_AUTHOR: author 'purge' is reserved"))
        #expect(try daemon.json("history") == [])
        #expect(try daemon.json("photo", "list") == [])
    }
}
