import ControlProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// SPEC §10 for one peer: every bad input gets one clear line with the store's exact
/// message, a non-zero exit, nothing changes (same photos, tags and history), and the
/// daemon keeps answering.
@Suite(.onOwnThreads) struct BadInputTests {
    /// A daemon with small limits, photo P (tagged `beach`, rated) and untagged photo Q,
    /// and files that cannot be photos.
    struct Fixture: Sendable {
        let directory: TestDirectory
        let daemon: DaemonProcess
        let p: String
        let q: String
        let beach: String

        init() throws {
            directory = try TestDirectory()
            let config = try directory.write(
                "peershared.conf", "max_photo_bytes = 4096\nmax_name_bytes = 16\nmax_thumbnail_bytes = 1KiB\n"
            )
            daemon = try DaemonProcess.startReady(in: directory, arguments: ["--config", config])
            p = try daemon.addPhoto(try directory.write("p.jpg", bytes: randomBytes(100)), "--tag", "beach")
            q = try daemon.addPhoto(try directory.write("q.jpg", bytes: randomBytes(100)))
            beach = try #require(try daemon.json("photo", "show", p)["tags"]?[0]?["id"]?.stringValue)
            _ = try daemon.json("rate", p, "5")
            try directory.write("big.jpg", bytes: randomBytes(5000))
            try directory.write("big-thumb.jpg", bytes: randomBytes(2048))
            _ = try directory.makeDirectory("folder")
            guard mkfifo(directory.file("pipe"), 0o600) == 0 else { throw HarnessError("mkfifo failed") }
        }

        func path(_ name: String) -> String { directory.file(name) }
    }

    /// One bad command: its arguments given the fixture, and the exact refusal.
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let make: @Sendable (Fixture) -> (arguments: [String], code: String, message: String)
    }

    static let seventeen = "abcdefghijklmnopq"

    static let cases: [Case] = [
        Case(description: "photo add of a missing file") { f in
            (
                ["photo", "add", f.path("missing.jpg")], "unreadable_file",
                "cannot read \(f.path("missing.jpg")): No such file or directory"
            )
        },
        Case(description: "photo add of a named pipe") { f in
            (
                ["photo", "add", f.path("pipe")], "unreadable_file",
                "cannot read \(f.path("pipe")): it is not a regular file"
            )
        },
        Case(description: "photo add of a device") { _ in
            (
                ["photo", "add", "/dev/zero"], "unreadable_file",
                "cannot read /dev/zero: it is not a regular file"
            )
        },
        Case(description: "photo add over max_photo_bytes") { f in
            (
                ["photo", "add", f.path("big.jpg")], "photo_too_large",
                "the photo is 5000 bytes, over the limit of 4096 bytes (max_photo_bytes in the config)"
            )
        },
        Case(description: "photo add with an empty name") { f in
            (["photo", "add", f.path("p.jpg"), "--name", ""], "invalid", "a photo name cannot be empty")
        },
        Case(description: "photo add with an over-long name") { f in
            (
                ["photo", "add", f.path("p.jpg"), "--name", seventeen], "invalid",
                "a photo name is at most 16 bytes, this one has 17 (max_name_bytes)"
            )
        },
        Case(description: "photo add with a line break in the name") { f in
            (
                ["photo", "add", f.path("p.jpg"), "--name", "a\nb"], "invalid",
                "a photo name cannot contain control characters or line breaks"
            )
        },
        Case(description: "photo add with an empty tag") { f in
            (
                ["photo", "add", f.path("p.jpg"), "--tag", "ok", "--tag", " "], "invalid",
                "a tag name cannot be empty"
            )
        },
        Case(description: "photo add with a thumbnail over the limit") { f in
            (
                ["photo", "add", f.path("p.jpg"), "--thumbnail", f.path("big-thumb.jpg")], "invalid",
                "the thumbnail is 2048 bytes, over the limit of 1024 bytes (max_thumbnail_bytes in the config)"
            )
        },
        Case(description: "photo add with a missing thumbnail") { f in
            (
                ["photo", "add", f.path("p.jpg"), "--thumbnail", f.path("none.jpg")], "unreadable_file",
                "cannot read \(f.path("none.jpg")): No such file or directory"
            )
        },
        Case(description: "photo add into an unknown share") { f in
            (["photo", "add", f.path("p.jpg"), "--share", "nope"], "not_found", "no share matches 'nope'")
        },
        Case(description: "photo show of an unknown ID") { _ in
            (["photo", "show", "zzzz"], "not_found", "no photo matches 'zzzz'")
        },
        Case(description: "photo show of an empty ID") { _ in
            (["photo", "show", ""], "not_found", "no photo matches ''")
        },
        Case(description: "photo list of an unknown share") { _ in
            (["photo", "list", "--share", "0000"], "not_found", "no share matches '0000'")
        },
        Case(description: "photo rename to an empty name") { f in
            (["photo", "rename", f.p, ""], "invalid", "a photo name cannot be empty")
        },
        Case(description: "photo rename to an over-long name") { f in
            (
                ["photo", "rename", f.p, seventeen + "é"], "invalid",
                "a photo name is at most 16 bytes, this one has 19 (max_name_bytes)"
            )
        },
        Case(description: "photo delete of an unknown ID") { _ in
            (["photo", "delete", "zzzz"], "not_found", "no photo matches 'zzzz'")
        },
        Case(description: "photo export of an unknown ID") { f in
            (["photo", "export", "zzzz", f.path("out.jpg")], "not_found", "no photo matches 'zzzz'")
        },
        Case(description: "photo export into a missing directory") { f in
            (
                ["photo", "export", f.p, f.path("nowhere/out.jpg")], "io_error",
                "creating \(f.path("nowhere/out.jpg")).peershare-partial failed: No such file or directory"
            )
        },
        Case(description: "tag add with an empty name") { f in
            (["tag", "add", f.p, ""], "invalid", "a tag name cannot be empty")
        },
        Case(description: "tag add with an over-long name") { f in
            (
                ["tag", "add", f.p, seventeen], "invalid",
                "a tag name is at most 16 bytes, this one has 17 (max_name_bytes)"
            )
        },
        Case(description: "tag add to an unknown photo") { _ in
            (["tag", "add", "zzzz", "beach"], "not_found", "no photo matches 'zzzz'")
        },
        Case(description: "tag toggle of an unknown tag") { f in
            (["tag", "toggle", f.p, "mountains"], "not_found", "no tag matches 'mountains'")
        },
        Case(description: "tag remove of a tag the photo lacks") { f in
            (
                ["tag", "remove", f.q, "beach"], "invalid",
                "photo \(f.q.prefix(8)) does not carry tag \(f.beach.prefix(8))"
            )
        },
        Case(description: "tag delete of an unknown tag") { _ in
            (["tag", "delete", "mountains"], "not_found", "no tag matches 'mountains'")
        },
        Case(description: "rate 0") { f in (["rate", f.p, "0"], "invalid", "a rating is 1 to 5, not 0") },
        Case(description: "rate 6") { f in (["rate", f.p, "6"], "invalid", "a rating is 1 to 5, not 6") },
        Case(description: "rate an unknown photo") { _ in
            (["rate", "zzzz", "3"], "not_found", "no photo matches 'zzzz'")
        },
        Case(description: "rating list of an unknown photo") { _ in
            (["rating", "list", "zzzz"], "not_found", "no photo matches 'zzzz'")
        },
        Case(description: "rating delete of an unknown rating") { _ in
            (["rating", "delete", "zzzz"], "not_found", "no rating matches 'zzzz'")
        },
        Case(description: "history of an unknown store") { _ in
            (
                ["history", "--store", "public"], "invalid_arguments",
                "history: store must be private or shared, not 'public'"
            )
        },
        Case(description: "history without an unknown author") { _ in
            (
                ["history", "--exclude-author", "sync:nobody"], "invalid_arguments",
                "history: exclude_author must be local, dedup, purge, sync, sync:PEER_ID, the name of one of "
                    + "your devices or a client's name (--author), not 'sync:nobody'"
            )
        },
        Case(description: "history with a zero limit") { _ in
            (
                ["history", "--limit", "0"], "invalid_arguments",
                "history: limit must be from 1 to 100000, not 0"
            )
        },
    ]

    @Test(arguments: cases)
    func isRefusedWithOneClearLineAndChangesNothing(_ bad: Case) throws {
        let fixture = try Fixture()
        let daemon = fixture.daemon
        let before = try daemon.snapshot()
        let blobs = files(under: daemon.libraryDirectory + "/blobs")
        let (arguments, code, message) = bad.make(fixture)
        #expect(try daemon.refusal(arguments) == ControlError(.init(rawValue: code), message))
        let human = try daemon.cli(arguments)
        #expect(human.status == 1)
        #expect(human.stdout == "")
        #expect(human.stderr == "peershare: \(message)\n")
        #expect(try daemon.snapshot() == before)
        #expect(files(under: daemon.libraryDirectory + "/blobs") == blobs)
        #expect(try daemon.json("ping") == ["pong": true])
    }

    /// Root reads any file whatever its mode, so this runs only as another user.
    @Test(.enabled(if: geteuid() != 0, "root can read a file of mode 000"))
    func aFileTheDaemonMayNotReadIsRefused() throws {
        let fixture = try Fixture()
        let locked = try fixture.directory.write("locked.jpg", bytes: randomBytes(10))
        chmod(locked, 0)
        let before = try fixture.daemon.snapshot()
        #expect(
            try fixture.daemon.refusal("photo", "add", locked)
                == ControlError("unreadable_file", "cannot read \(locked): Permission denied"))
        #expect(try fixture.daemon.snapshot() == before)
    }

    @Test func anAmbiguousPrefixNamesHowManyObjectsMatch() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        // 17 photos: by the pigeonhole principle two share their first hex digit.
        var ids: [String] = []
        for index in 0..<17 {
            ids.append(try daemon.addPhoto(try directory.write("\(index).jpg", bytes: randomBytes(8))))
        }
        let groups = Dictionary(grouping: ids) { String($0.prefix(1)) }
        let (prefix, matching) = try #require(groups.first { $0.value.count > 1 })
        let before = try daemon.snapshot()
        let message = "'\(prefix)' matches \(matching.count) photos: give more characters of the ID"
        for arguments in [["photo", "show", prefix], ["rate", prefix, "3"], ["photo", "delete", prefix]] {
            #expect(try daemon.refusal(arguments) == ControlError("ambiguous", message))
        }
        #expect(try daemon.snapshot() == before)
        let unique = try #require(matching.first)
        #expect(try daemon.json("photo", "show", String(unique.prefix(13)))["id"] == .string(unique))
    }

    @Test func controlRequestsWithBadArgumentsAreRefusedByTheDaemonItself() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        try directory.write("a.jpg", bytes: randomBytes(10))
        let client = try RawControlClient(path: daemon.socketPath)
        let requests: [(String, String)] = [
            (
                #"{"id": 1, "command": "photo.add", "args": {"file": "a.jpg"}}"#,
                #"photo.add: argument "file" must be an absolute path, not 'a.jpg'"#
            ),
            (
                #"{"id": 2, "command": "photo.add", "args": {"file": "/a.jpg", "colour": 1}}"#,
                #"photo.add: unknown argument "colour"; allowed: allow_duplicates, file, name, share, tags, thumbnail"#
            ),
            (
                #"{"id": 3, "command": "photo.add", "args": {"file": "/a.jpg", "progress": "yes"}}"#,
                #"photo.add: argument "progress" must be true or false, got a string"#
            ),
            (
                #"{"id": 4, "command": "rate", "args": {"photo": "a", "value": "5"}}"#,
                #"rate: argument "value" must be a whole number, got a string"#
            ),
            (
                #"{"id": 5, "command": "tag.add", "args": {"photo": "a"}}"#,
                #"tag.add: missing argument "name" (a string)"#
            ),
        ]
        for (index, (request, message)) in requests.enumerated() {
            #expect(
                try client.request(request)
                    == [
                        "id": .int(index + 1), "ok": false,
                        "error": ["code": "invalid_arguments", "message": .string(message)],
                    ])
        }
        #expect(
            try client.request(#"{"id": 6, "command": "photo.list"}"#) == ["id": 6, "ok": true, "result": []])
    }
}
