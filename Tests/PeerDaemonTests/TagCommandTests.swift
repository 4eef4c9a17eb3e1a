import ControlProtocol
import Foundation
import TestSupport
import Testing

/// `tag add|toggle|remove|list|delete`: tags reused by name within a zone, found by ID
/// prefix or name, and gone from their photos when deleted.
@Suite(.onOwnThreads) struct TagCommandTests {
    /// A daemon with two photos, A and B.
    struct Fixture {
        let directory: TestDirectory
        let daemon: DaemonProcess
        let a: String
        let b: String

        init() throws {
            directory = try TestDirectory()
            daemon = try DaemonProcess.startReady(in: directory)
            a = try daemon.addPhoto(try directory.write("a.jpg", bytes: randomBytes(10)), "--name", "A")
            b = try daemon.addPhoto(try directory.write("b.jpg", bytes: randomBytes(10)), "--name", "B")
        }

        func tagNames(_ photo: String) throws -> [JSON] {
            try daemon.json("photo", "show", photo)["tags"]?.arrayValue?.compactMap { $0["name"] } ?? []
        }
    }

    @Test func tagAddReusesTheZonesTagOfThatName() throws {
        let f = try Fixture()
        let first = try f.daemon.json("tag", "add", f.a, "beach")
        let id = try #require(first["id"]?.stringValue)
        let uuid = try #require(first["uuid"]?.stringValue)
        #expect(first == ["id": .string(id), "uuid": .string(uuid), "name": "beach", "photo": .string(f.a)])
        let second = try f.daemon.json("tag", "add", String(f.b.prefix(8)), "beach")
        #expect(second["id"] == .string(id) && second["uuid"] == .string(uuid))
        // Tagging again with the same name changes nothing.
        let token = try f.daemon.json("history").arrayValue?.count
        #expect(try f.daemon.json("tag", "add", f.a, "beach")["id"] == .string(id))
        #expect(try f.daemon.json("history").arrayValue?.count == token)

        let list = try f.daemon.json("tag", "list")
        #expect(
            list == [
                [
                    "id": .string(id), "uuid": .string(uuid), "name": "beach", "zone": "default",
                    "photo_count": 2,
                    "store": "private",
                ]
            ])
        #expect(try f.daemon.cli("tag", "add", f.a, "sea").stdout.count == 37)
        #expect(
            try f.daemon.cli("tag", "list").stdout
                == "ID        NAME   PHOTOS  ZONE\n\(id.prefix(8))  beach  2       default\n"
                + "\(try f.daemon.json("tag", "list")[1]?["id"]?.stringValue?.prefix(8) ?? "")  sea    1       default\n"
        )
    }

    @Test func toggleAndRemoveTakeATagByNameOrIDPrefix() throws {
        let f = try Fixture()
        let tag = try #require(try f.daemon.json("tag", "add", f.a, "beach")["id"]?.stringValue)
        let off = try f.daemon.json("tag", "toggle", f.a, "beach")
        #expect(
            off == [
                "id": .string(tag), "photo": .string(f.a), "tag": .string(tag), "name": "beach",
                "tagged": false,
            ])
        #expect(try f.tagNames(f.a) == [])
        let on = try f.daemon.cli("tag", "toggle", f.a, String(tag.prefix(6)))
        #expect(on.stdout == "tagged \(f.a.prefix(8)) with beach\n")
        #expect(try f.tagNames(f.a) == ["beach"])
        // A tag can be toggled onto another photo of its zone by ID.
        #expect(try f.daemon.json("tag", "toggle", f.b, tag)["tagged"] == true)

        let removed = try f.daemon.cli("tag", "remove", f.a, "beach")
        #expect(removed.stdout == "removed tag beach from \(f.a.prefix(8))\n")
        #expect(try f.tagNames(f.a) == [])
        #expect(
            try f.daemon.refusal("tag", "remove", f.a, "beach")
                == ControlError("invalid", "photo \(f.a.prefix(8)) does not carry tag \(tag.prefix(8))"))
        #expect(try f.tagNames(f.b) == ["beach"])
        #expect(try f.daemon.json("tag", "list")[0]?["photo_count"] == 1)
    }

    @Test func deletingATagRemovesItFromItsPhotos() throws {
        let f = try Fixture()
        let beach = try #require(try f.daemon.json("tag", "add", f.a, "beach")["id"]?.stringValue)
        _ = try f.daemon.json("tag", "add", f.b, "beach")
        _ = try f.daemon.json("tag", "add", f.b, "city")
        let deleted = try f.daemon.cli("tag", "delete", "beach")
        #expect(deleted.stdout == "deleted tag beach (\(beach.prefix(8)))\n")
        #expect(try f.tagNames(f.a) == [])
        #expect(try f.tagNames(f.b) == ["city"])
        #expect(try f.daemon.json("tag", "list").arrayValue?.map { $0["name"] } == ["city"])
        #expect(
            try f.daemon.refusal("tag", "delete", beach)
                == ControlError("not_found", "no tag matches '\(beach)'"))
        let last = try #require(try f.daemon.json("history").arrayValue?.last)
        let changes = try #require(last["changes"]?.arrayValue)
        #expect(
            changes.contains(["entity": "tag", "id": .string(beach), "type": "delete", "zone": "default"]))
        #expect(changes.filter { $0["entity"] == "photo_tag" && $0["type"] == "update" }.count == 2)
        // The name is free again: a new tag, with a new UUID.
        #expect(try f.daemon.json("tag", "add", f.a, "beach")["id"] != .string(beach))
    }

    @Test func ratingsAreAddedListedAndDeleted() throws {
        let f = try Fixture()
        let four = try #require(try f.daemon.json("rate", f.a, "4")["id"]?.stringValue)
        let five = try #require(
            try f.daemon.cli("rate", String(f.a.prefix(8)), "5").stdout.split(separator: "\n").first)
        let ratings = try #require(try f.daemon.json("rating", "list", f.a).arrayValue)
        /// A rating as `photo show` lists it: its ID and value (`rating list` adds who rated).
        func idAndValue(_ rating: JSON) -> JSON {
            ["id": rating["id"] ?? .null, "value": rating["value"] ?? .null]
        }
        #expect(
            Set(ratings.map(idAndValue))
                == [["id": .string(four), "value": 4], ["id": .string(String(five)), "value": 5]])
        #expect(
            Set(try f.daemon.json("photo", "show", f.a)["ratings"]?.arrayValue ?? [])
                == Set(ratings.map(idAndValue)))
        // Who rated: this device, by the name its person's list gives it.
        let me = try f.daemon.json("id")
        let host = try #require(me["device_name"]?.stringValue)
        for rating in ratings {
            #expect(rating["rater_id"] == me["peer_id"] && rating["rater_person_id"] == me["person_id"])
            #expect(rating["rater_name"] == .string(host) && rating["rater_person_name"] == .null)
        }
        #expect(try f.daemon.json("rating", "list", f.b) == [])
        #expect(try f.daemon.cli("rating", "list", f.b).stdout == "no ratings\n")

        #expect(
            try f.daemon.cli("rating", "delete", String(four.prefix(8))).stdout
                == "deleted rating \(four.prefix(8))\n")
        #expect(
            try f.daemon.json("rating", "list", f.a).arrayValue?.map(idAndValue) == [
                ["id": .string(String(five)), "value": 5]
            ])
        #expect(
            try f.daemon.cli("rating", "list", f.a).stdout
                == "ID        VALUE  RATED BY\n\(five.prefix(8))  5      \(host)\n")
    }
}
