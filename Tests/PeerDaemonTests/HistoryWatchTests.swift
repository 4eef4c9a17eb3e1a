import ControlProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// `history` (tokens, authors, filters) and `watch` streaming committed changes live.
@Suite(.onOwnThreads) struct HistoryWatchTests {
    @Test func historyListsEveryTransactionWithItsTokenAuthorAndChanges() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        #expect(try daemon.json("history") == [])
        #expect(try daemon.cli("history").stdout == "no history\n")
        let photo = try daemon.addPhoto(try directory.write("a.jpg", bytes: randomBytes(10)), "--tag", "sea")
        let tag = try #require(try daemon.json("photo", "show", photo)["tags"]?[0]?["id"]?.stringValue)
        let rating = try #require(try daemon.json("rate", photo, "3")["id"]?.stringValue)

        let history = try #require(try daemon.json("history").arrayValue)
        #expect(history.count == 2)
        for entry in history {
            #expect(
                entry.objectValue.map { Set($0.keys) } == [
                    "id", "token", "author", "store", "timestamp", "changes", "device", "device_name",
                    "person_name",
                ])
            #expect(entry["author"] == "local")
            #expect(entry["store"] == "private")
            #expect(entry["timestamp"]?.stringValue?.hasSuffix("Z") == true)
        }
        #expect(history.map { $0["token"] } == [1, 2])
        #expect(
            history[0]["changes"] == [
                ["entity": "photo", "id": .string(photo), "type": "insert", "zone": "default"],
                ["entity": "tag", "id": .string(tag), "type": "insert", "zone": "default"],
                [
                    "entity": "photo_tag", "id": .string("\(photo)/\(tag)"), "type": "insert",
                    "zone": "default",
                ],
            ])
        #expect(
            history[1]["changes"] == [
                ["entity": "rating", "id": .string(rating), "type": "insert", "zone": "default"]
            ])

        #expect(try daemon.json("history", "--since", "1") == [history[1]])
        #expect(try daemon.json("history", "--since", "2") == [])
        #expect(try daemon.json("history", "--limit", "1") == [history[0]])
        #expect(try daemon.json("history", "--store", "private") == .array(history))
        #expect(try daemon.json("history", "--store", "shared") == [])
        #expect(try daemon.json("history", "--exclude-author", "local") == [])
        #expect(try daemon.json("history", "--exclude-author", "sync") == .array(history))
        let time = try #require(history[1]["timestamp"]?.stringValue)
        #expect(
            try daemon.cli("history", "--since", "1").stdout
                == "#2  \(time)  private  local\n    insert rating \(rating.prefix(8))\n")
    }

    @Test func watchSeesAChangeMadeByAnotherCLI() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let json = try daemon.startCLI("--json", "watch", "--type", "history", label: "watch-json")
        let human = try daemon.startCLI("watch", label: "watch-human")
        try waitUntil("two watchers") { try daemon.json("status")["watchers"] == 2 }

        let photo = try daemon.addPhoto(try directory.write("a.jpg", bytes: randomBytes(10)))
        try waitUntil("the history event in:\n\(json.stdout)") { json.stdout.hasSuffix("\n") }
        let line = try #require(json.stdout.split(separator: "\n").first)
        let event = try #require(JSONLine.decode(Data(line.utf8)))
        #expect(event["type"] == "history")
        let data = try #require(event["data"])
        #expect(data["token"] == 1 && data["author"] == "local" && data["store"] == "private")
        #expect(
            data["changes"] == [
                ["entity": "photo", "id": .string(photo), "type": "insert", "zone": "default"]
            ])
        // The event is the history entry, but for the names (which only `history` adds).
        guard case .object(var entry)? = try daemon.json("history")[0] else {
            Issue.record("no history entry")
            return
        }
        for key in ["device", "device_name", "person_name"] { #expect(entry.removeValue(forKey: key) != nil) }
        #expect(data == .object(entry))

        try waitUntil("the history line in:\n\(human.stdout)") { human.stdout.hasSuffix("\n") }
        let time = try #require(event["time"]?.stringValue)
        #expect(human.stdout == "\(time) history #1 private local: insert photo \(photo.prefix(8))\n")

        // A refused command commits nothing, so nothing is streamed for it.
        _ = try daemon.refusal("rate", photo, "9")
        _ = try daemon.json("rate", photo, "2")
        try waitUntil("a second event") { json.stdout.split(separator: "\n").count == 2 }
        #expect(JSONLine.decode(Data(json.stdout.split(separator: "\n")[1].utf8))?["data"]?["token"] == 2)

        json.send(SIGINT)
        human.send(SIGINT)
        #expect(try json.waitForExit() == 0)
        #expect(try human.waitForExit() == 0)
    }
}
