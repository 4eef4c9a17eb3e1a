import ControlProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// The control protocol as a raw client sees it: framing, typed errors, and the daemon
/// carrying on after bad input.
@Suite(.onOwnThreads) struct ControlSocketTests {
    @Test func aLineThatIsNotJSONGetsInvalidJSONAndTheConnectionGoesOn() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let client = try RawControlClient(path: daemon.socketPath)
        #expect(
            try client.request("this is not json")
                == [
                    "id": nil, "ok": false,
                    "error": [
                        "code": "invalid_json",
                        "message": .string(
                            "the request line is not valid JSON: send one JSON object per line, such as "
                                + #"{"id": 1, "command": "ping"}"#),
                    ],
                ])
        #expect(try client.request(#"{"id": "a", "command": "ping"}"#)["result"] == ["pong": true])
    }

    @Test func anUnknownCommandGetsUnknownCommandWithItsIDAndTheKnownCommands() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let client = try RawControlClient(path: daemon.socketPath)
        #expect(
            try client.request(#"{"id": [7], "command": "photo.frobnicate", "args": {}}"#)
                == [
                    "id": [7], "ok": false,
                    "error": [
                        "code": "unknown_command",
                        "message": .string(
                            "unknown command 'photo.frobnicate': the commands are accept, backup, device.join, "
                                + "device.link, device.list, device.remove, device.rename, doctor, history, id, name.set, pause, "
                                + "peers, photo.add, photo.delete, photo.export, photo.list, photo.rename, "
                                + "photo.show, ping, rate, rating.delete, rating.list, resume, share.add, "
                                + "share.approve, share.create, share.deny, share.dismiss, share.invite, share.keep, "
                                + "share.leave, share.list, share.permission, share.remove, share.revoke, share.set, "
                                + "share.show, share.stop, status, sync, tag.add, tag.delete, tag.list, tag.remove, "
                                + "tag.toggle, ui, watch"),
                    ],
                ])
        #expect(try client.request(#"{"id": 2, "command": "ping"}"#)["ok"] == true)
    }

    @Test func requestsOfTheWrongShapeGetInvalidRequestOrInvalidArguments() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let client = try RawControlClient(path: daemon.socketPath)
        #expect(try client.request("[1, 2]")["error"]?["code"] == "invalid_request")
        #expect(try client.request(#"{"id": 3}"#)["error"]?["code"] == "invalid_request")
        #expect(try client.request(#"{"id": 4, "command": "ping", "args": 5}"#)["id"] == 4)
        #expect(
            try client.request(#"{"id": 5, "command": "status", "args": {"verbose": true}}"#)["error"]
                == [
                    "code": "invalid_arguments",
                    "message": #"status: unknown argument "verbose"; it takes no arguments"#,
                ])
        #expect(try client.request(#"{"id": 6, "command": "ping"}"#)["ok"] == true)
    }

    @Test func anOverLongLineGetsLineTooLongThenTheConnectionClosesAndTheDaemonGoesOn() throws {
        let directory = try TestDirectory()
        let config = try directory.write("peershared.conf", "max_control_line_bytes = 1KiB\n")
        let daemon = try DaemonProcess.startReady(in: directory, arguments: ["--config", config])
        let client = try RawControlClient(path: daemon.socketPath)
        let long =
            #"{"id": 1, "command": "ping", "args": {"pad": ""# + String(repeating: "x", count: 2 << 20)
            + #""}}"#
        #expect(
            try client.request(long)
                == [
                    "id": nil, "ok": false,
                    "error": [
                        "code": "line_too_long",
                        "message": .string(
                            "the request line is longer than 1024 bytes (max_control_line_bytes): send a smaller "
                                + "request; this connection is now closed"),
                    ],
                ])
        #expect(client.readsEndOfStream())
        let fresh = try RawControlClient(path: daemon.socketPath)
        #expect(
            try fresh.request(#"{"id": 9, "command": "ping"}"#) == [
                "id": 9, "ok": true, "result": ["pong": true],
            ])
    }

    @Test func pathologicalJSONIsRefusedWithoutHarmingTheDaemon() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let client = try RawControlClient(path: daemon.socketPath)
        for line in [
            String(repeating: "[", count: 200_000), String(repeating: #"{"a":"#, count: 50_000),
            "\u{FFFD}\u{0}",
        ] {
            #expect(try client.request(line)["error"]?["code"] == "invalid_json")
        }
        #expect(try client.request(#"{"id": 1, "command": "ping"}"#)["ok"] == true)
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let client = try RawControlClient(path: daemon.socketPath)
        try client.send((1...5).map { #"{"id": \#($0), "command": "ping"}"# }.joined(separator: "\n"))
        for id in 1...5 {
            #expect(try client.readJSON()["id"] == .int(id))
        }
    }

    @Test func idAndStatusCarryTheDocumentedKeys() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let id = try daemon.json("id")
        #expect(
            id.objectValue.map { Set($0.keys) } == ["peer_id", "person_id", "person_name", "device_name"])
        let peerID = try #require(id["peer_id"]?.stringValue)
        #expect(peerID.count == 63)

        let status = try daemon.json("status")
        let keys = try #require(status.objectValue.map { Set($0.keys) })
        #expect(
            keys == [
                "peer_id", "person_id", "person_name", "device_name", "listen", "advertise", "advertise_all",
                "control_socket", "state_dir",
                "config_file", "pid",
                "uptime", "uptime_seconds",
                "log_level", "version", "watchers", "zones", "photos", "tags", "discovery",
            ])
        #expect(status["peer_id"] == .string(peerID))
        let listen = try #require(status["listen"]?.stringValue)
        #expect(listen.hasPrefix("127.0.0.1:") && !listen.hasSuffix(":0"))
        #expect(status["advertise"] == .string(listen))
        #expect(status["advertise_all"] == [.string(listen)])
        #expect(status["control_socket"] == .string(daemon.socketPath))
        #expect(status["state_dir"] == .string(daemon.stateDirectory))
        #expect(status["pid"] == .int(Int(daemon.pid)))
        #expect(
            status["zones"] == [
                ["id": "default", "store": "private", "role": "owner", "title": nil, "photos": 0, "tags": 0]
            ])
        #expect(status["photos"] == 0)
        #expect(status["tags"] == 0)
        #expect((status["uptime_seconds"]?.doubleValue ?? -1) >= 0)
        #expect(status["uptime"] != nil)
    }

    @Test func watchStreamsAPublishedEventToTheCLI() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let watch = try daemon.startCLI("--json", "watch", label: "watch")
        try waitUntil("the watch client to subscribe") { try daemon.json("status")["watchers"] == 1 }

        daemon.send(SIGHUP)  // a reload publishes daemon.reloaded
        try waitUntil("daemon.reloaded on watch's stdout: \(watch.stdout)") {
            watch.stdout.contains("daemon.reloaded")
        }
        daemon.send(SIGTERM)  // stopping publishes daemon.stopping, then ends the stream
        #expect(try watch.waitForExit() == 0)
        #expect(try daemon.waitForExit() == 0)

        let events = watch.stdout.split(separator: "\n").compactMap { JSONLine.decode(Data($0.utf8)) }
        #expect(events.map { $0["type"] } == ["daemon.reloaded", "daemon.stopping"])
        #expect(events.first?["data"] == ["log_level": "info", "restart_required": []])
        #expect(events.last?["data"] == ["reason": "SIGTERM"])
        #expect(events.allSatisfy { $0["time"]?.stringValue?.hasSuffix("Z") == true })
        #expect(watch.stderr.isEmpty)
    }

    @Test func watchOnARawSocketAcknowledgesThenTagsEventsWithTheRequestID() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let client = try RawControlClient(path: daemon.socketPath)
        #expect(
            try client.request(#"{"id": "w", "command": "watch", "args": {"types": ["daemon.reloaded"]}}"#)
                == ["id": "w", "ok": true, "result": ["watching": true, "types": ["daemon.reloaded"]]])
        daemon.send(SIGHUP)
        let line = try client.readJSON()
        #expect(line["id"] == "w")
        #expect(line["event"]?["type"] == "daemon.reloaded")
    }

    @Test func interruptingWatchExitsZero() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let watch = try daemon.startCLI("watch", label: "watch")
        try waitUntil("the watch client to subscribe") { try daemon.json("status")["watchers"] == 1 }
        watch.send(SIGINT)
        #expect(try watch.waitForExit() == 0)
        try waitUntil("the watcher to be gone") { try daemon.json("status")["watchers"] == 0 }
    }
}
