import ControlProtocol
import Foundation
import Store
import TestSupport
import Testing

/// `photo add|list|show|export|rename|delete` through the real CLI and daemon.
@Suite(.onOwnThreads) struct PhotoCommandTests {
    static let photoKeys: Set<String> = [
        "id", "name", "zone", "store", "size", "sha256", "pending", "tags", "ratings", "unique_name",
        "created_at", "thumbnail_size",
    ]

    @Test func aPhotoAddedWithTagsAndAThumbnailIsListedAndShownWithTheDocumentedKeys() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let bytes = randomBytes(100_000)
        let file = try directory.write("IMG_0001.jpg", bytes: bytes)
        let thumbnail = try directory.write("thumb.jpg", bytes: randomBytes(2048))

        let added = try daemon.json(
            "photo", "add", file, "--name", "Beach", "--tag", "sun", "--tag", "sea", "--thumbnail", thumbnail)
        #expect(added.objectValue.map { Set($0.keys) } == ["id"])
        let id = try #require(added["id"]?.stringValue)
        #expect(id.count == 36)

        let list = try #require(try daemon.json("photo", "list").arrayValue)
        #expect(list.count == 1)
        let photo = list[0]
        #expect(photo.objectValue.map { Set($0.keys) } == Self.photoKeys)
        #expect(photo["id"] == .string(id))
        #expect(photo["name"] == "Beach")
        #expect(photo["zone"] == "default")
        #expect(photo["store"] == "private")
        #expect(photo["size"] == 100_000)
        #expect(photo["sha256"] == .string(sha256Hex(bytes)))
        #expect(photo["pending"] == false)
        #expect(photo["thumbnail_size"] == 2048)
        #expect(photo["ratings"] == [])
        let tags = try #require(photo["tags"]?.arrayValue)
        #expect(tags.map { $0["name"] } == ["sea", "sun"])
        for tag in tags {
            #expect(tag.objectValue.map { Set($0.keys) } == ["id", "uuid", "name"])
            #expect(tag["uuid"]?.stringValue?.count == 36)
        }
        #expect(try daemon.json("photo", "show", String(id.prefix(6))) == photo)
        #expect(FileManager.default.fileExists(atPath: daemon.blobPath(sha256Hex(bytes))))

        let human = try daemon.cli("photo", "list")
        #expect(
            human.stdout == "ID        NAME   SIZE      ZONE     TAGS      RATINGS\n"
                + "\(id.prefix(8))  Beach  97.7 KiB  default  sea, sun  -\n")
        let shown = try daemon.cli("photo", "show", id)
        #expect(
            shown.stdout.hasPrefix("id         \(id)\nname       Beach\nzone       default (private store)\n")
        )
        #expect(shown.stdout.contains("\nthumbnail  2048 bytes\n"))
        #expect(shown.stdout.hasSuffix("\nratings    none\n"))
    }

    @Test func aPhotoIsNamedAfterItsFileByDefaultAndAddPrintsItsID() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        try directory.write("holiday.png", bytes: randomBytes(10))
        // A relative path: the CLI makes it absolute, since the daemon has its own directory.
        let added = try daemon.cli("photo", "add", "holiday.png")
        #expect(added.status == 0)
        let id = String(added.stdout.dropLast())
        #expect(added.stdout == id + "\n" && id.count == 36)
        #expect(try daemon.json("photo", "show", id)["name"] == "holiday.png")
    }

    @Test func exportWritesTheSameBytesToAFileOrIntoADirectory() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let bytes = randomBytes(300_000)
        let id = try daemon.addPhoto(try directory.write("in.jpg", bytes: bytes), "--name", "Lake")

        let out = directory.file("out.jpg")
        let exported = try daemon.json("photo", "export", id, out)
        #expect(
            exported == [
                "id": .string(id), "file": .string(out), "size": 300_000, "sha256": .string(sha256Hex(bytes)),
            ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(bytes))

        let folder = try directory.makeDirectory("exports")
        let human = try daemon.cli("photo", "export", String(id.prefix(8)), folder)
        #expect(human.stdout == "exported \(id.prefix(8)) to \(folder)/Lake (293.0 KiB)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/Lake")) == Data(bytes))
        #expect(entries(of: folder) == ["Lake"])
    }

    @Test func renameChangesOnlyTheName() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let id = try daemon.addPhoto(try directory.write("a.jpg", bytes: randomBytes(50)), "--tag", "x")
        let before = try daemon.json("photo", "show", id)
        let renamed = try daemon.json("photo", "rename", id, "Sunset over the bay")
        let after = try daemon.json("photo", "show", id)
        #expect(renamed == after)
        #expect(after["name"] == "Sunset over the bay")
        var expected = try #require(before.objectValue)
        expected["name"] = "Sunset over the bay"
        #expect(after == .object(expected))
        #expect(try daemon.cli("photo", "rename", id, "Dawn").stdout == "renamed \(id.prefix(8)) to Dawn\n")
    }

    @Test func deletingAPhotoTakesItsDataThumbnailAndRatingsAndLeavesItsTags() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let bytes = randomBytes(4096)
        let id = try daemon.addPhoto(
            try directory.write("a.jpg", bytes: bytes), "--tag", "sea", "--tag", "sun", "--thumbnail",
            try directory.write("t.jpg", bytes: randomBytes(100)))
        let rating = try #require(try daemon.json("rate", id, "4")["id"]?.stringValue)
        #expect(FileManager.default.fileExists(atPath: daemon.blobPath(sha256Hex(bytes))))

        #expect(
            try daemon.cli("photo", "delete", String(id.prefix(8))).stdout
                == "deleted photo \(id.prefix(8))\n")
        #expect(try daemon.json("photo", "list") == [])
        #expect(
            try daemon.refusal("photo", "show", id) == ControlError("not_found", "no photo matches '\(id)'"))
        #expect(
            try daemon.refusal("rating", "list", id) == ControlError("not_found", "no photo matches '\(id)'"))
        #expect(
            try daemon.refusal("rating", "delete", rating)
                == ControlError("not_found", "no rating matches '\(rating)'"))
        let tags = try #require(try daemon.json("tag", "list").arrayValue)
        #expect(tags.map { $0["name"] } == ["sea", "sun"])
        #expect(tags.map { $0["photo_count"] } == [0, 0])
        #expect(!FileManager.default.fileExists(atPath: daemon.blobPath(sha256Hex(bytes))))
        #expect(entries(of: daemon.blobDirectory() + "/tmp") == [])
    }

    @Test func photoDataSharedByTwoPhotosStaysUntilTheLastOneGoes() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let bytes = randomBytes(1000)
        let file = try directory.write("same.jpg", bytes: bytes)
        let first = try daemon.addPhoto(file)
        let second = try daemon.addPhoto(file, "--name", "copy", "--allow-duplicates")
        _ = try daemon.json("photo", "delete", first)
        #expect(FileManager.default.fileExists(atPath: daemon.blobPath(sha256Hex(bytes))))
        let out = directory.file("out.jpg")
        _ = try daemon.json("photo", "export", second, out)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(bytes))
        _ = try daemon.json("photo", "delete", second)
        #expect(!FileManager.default.fileExists(atPath: daemon.blobPath(sha256Hex(bytes))))
    }

    @Test func photoListFiltersByTagName() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let beach = try daemon.addPhoto(
            try directory.write("1.jpg", bytes: randomBytes(10)), "--tag", "beach")
        let both = try daemon.addPhoto(
            try directory.write("2.jpg", bytes: randomBytes(10)), "--tag", "beach", "--tag", "city")
        _ = try daemon.addPhoto(try directory.write("3.jpg", bytes: randomBytes(10)))
        let tagged = try #require(try daemon.json("photo", "list", "--tag", "beach").arrayValue)
        #expect(Set(tagged.compactMap { $0["id"]?.stringValue }) == [beach, both])
        #expect(
            try daemon.json("photo", "list", "--tag", "city").arrayValue?.map { $0["id"] } == [.string(both)])
        #expect(try daemon.json("photo", "list", "--tag", "nothing") == [])
        #expect(try daemon.json("photo", "list", "--share", "default").arrayValue?.count == 3)
        #expect(try daemon.cli("photo", "list", "--tag", "nothing").stdout == "no photos\n")
    }
}
