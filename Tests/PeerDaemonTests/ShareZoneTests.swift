import ControlProtocol
import Foundation
import Store
import TestSupport
import Testing

/// The commands on zones other than the default one: shares this peer owns and shares it
/// takes part in (built offline with the Store API while the daemon is stopped).
@Suite(.onOwnThreads) struct ShareZoneTests {
    struct Fixture {
        let directory: TestDirectory
        let daemon: DaemonProcess
        let local: String
        let trip: String
        let tripPhoto: String
        let holidays: String
        let holidaysPhoto: String
        let owner: PeerID

        init() throws {
            directory = try TestDirectory()
            let first = try DaemonProcess.startReady(in: directory)
            let peer = try PeerID(parsing: try #require(try first.json("id")["peer_id"]?.stringValue))
            local = try first.addPhoto(
                try directory.write("home.jpg", bytes: randomBytes(10)), "--tag", "home")
            tripPhoto = try first.addPhoto(
                try directory.write("trip.jpg", bytes: randomBytes(10)), "--tag", "trip")
            try first.stop()
            var library: Library? = try OfflineLibrary.open(first, peer: peer)
            trip = try library!.privateStore.createShare(
                photo: tripPhoto, title: "Trip", publicPermission: .none)
            (owner, holidays, holidaysPhoto) = try OfflineLibrary.shareFromAnotherPeer(
                with: library!, title: "Holidays", tag: "summer", permission: .readOnly, in: directory)
            library = nil
            daemon = try first.restart(label: "restarted")
        }
    }

    @Test func statusListsEveryZoneWithItsStoreRoleTitleAndCounts() throws {
        let f = try Fixture()
        let status = try f.daemon.json("status")
        #expect(
            status["zones"] == [
                ["id": "default", "store": "private", "role": "owner", "title": nil, "photos": 1, "tags": 1],
                [
                    "id": .string(f.trip), "store": "private", "role": "owner", "title": "Trip", "photos": 1,
                    "tags": 1,
                ],
                [
                    "id": .string(f.holidays), "store": "shared", "role": "participant", "title": "Holidays",
                    "photos": 1, "tags": 1,
                ],
            ])
        #expect(status["photos"] == 3 && status["tags"] == 3)
        let human = try f.daemon.cli("status")
        #expect(
            human.stdout.hasSuffix(
                "\nzones           default (private, owner): 1 photo, 1 tag\n"
                    + "                \(f.trip.prefix(8)) \"Trip\" (private, owner): 1 photo, 1 tag\n"
                    + "                \(f.holidays.prefix(8)) \"Holidays\" (shared, participant): 1 photo, 1 tag\n"
            ))
    }

    @Test func listsFilterByShareAndAddPutsAPhotoIntoAShare() throws {
        let f = try Fixture()
        let ids = { (arguments: [String]) in
            try f.daemon.json(arguments).arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        }
        #expect(try ids(["photo", "list", "--share", String(f.trip.prefix(6))]) == [f.tripPhoto])
        #expect(try ids(["photo", "list", "--share", "default"]) == [f.local])
        let shared = try f.daemon.json("photo", "show", f.holidaysPhoto)
        #expect(shared["store"] == "shared" && shared["zone"] == .string(f.holidays))
        #expect(shared["pending"] == true)
        let tags = try f.daemon.json("tag", "list", "--share", f.holidays)
        #expect(tags.arrayValue?.map { $0["name"] } == ["summer"])
        #expect(tags[0]?["store"] == "shared")

        let added = try f.daemon.addPhoto(
            try directory(f).write("new.jpg", bytes: randomBytes(10)), "--share", String(f.trip.prefix(8)),
            "--tag",
            "trip")
        let photo = try f.daemon.json("photo", "show", added)
        #expect(photo["zone"] == .string(f.trip))
        // The share's existing tag of that name is reused.
        #expect(
            try f.daemon.json("tag", "list", "--share", f.trip).arrayValue?.map { $0["photo_count"] } == [2])
    }

    @Test func historyTellsSyncFromLocalAuthorsPerStore() throws {
        let f = try Fixture()
        let shared = try #require(try f.daemon.json("history", "--store", "shared").arrayValue)
        #expect(shared.map { $0["author"] } == [.string("sync:\(f.owner)")])
        #expect(shared.map { $0["token"] } == [1])
        #expect(shared[0]["changes"]?.arrayValue?.contains { $0["id"] == .string(f.holidaysPhoto) } == true)
        #expect(try f.daemon.json("history", "--store", "shared", "--exclude-author", "sync") == [])
        let lowercase = "sync:" + f.owner.description.lowercased()
        #expect(try f.daemon.json("history", "--store", "shared", "--exclude-author", lowercase) == [])
        let all = try #require(try f.daemon.json("history").arrayValue)
        #expect(try f.daemon.json("history", "--exclude-author", "local") == .array(shared))
        #expect(all.filter { $0["store"] == "private" }.allSatisfy { $0["author"] == "local" })
    }

    @Test func whatAReadOnlyShareForbidsIsRefusedAtOnceAndChangesNothing() throws {
        let f = try Fixture()
        let before = try f.daemon.snapshot()
        let photo = f.holidaysPhoto
        let readOnly = "you have read-only access to this share"
        let summer = try #require(
            try f.daemon.json("tag", "list", "--share", f.holidays)[0]?["id"]?.stringValue)
        let file = try directory(f).write("more.jpg", bytes: randomBytes(10))
        let cases: [([String], ControlError)] = [
            (["rate", photo, "4"], ControlError("permission_denied", "cannot rate this photo: \(readOnly)")),
            (
                ["tag", "add", photo, "x"],
                ControlError("permission_denied", "cannot tag this photo: \(readOnly)")
            ),
            (
                ["photo", "rename", photo, "x"],
                ControlError("permission_denied", "cannot rename this photo: \(readOnly)")
            ),
            (
                ["photo", "delete", photo],
                ControlError("permission_denied", "cannot delete this photo: \(readOnly)")
            ),
            (
                ["tag", "delete", summer],
                ControlError("permission_denied", "cannot delete this tag: \(readOnly)")
            ),
            (
                ["photo", "add", file, "--share", f.holidays],
                ControlError("permission_denied", "cannot add a photo: \(readOnly)")
            ),
            (
                ["photo", "export", photo, directory(f).file("out.jpg")],
                ControlError(
                    "pending",
                    "photo \(photo.prefix(8))'s data has not fully arrived from its share yet: wait for the sync "
                        + "('peershare sync --wait') and retry")
            ),
            (
                ["tag", "toggle", f.local, summer],
                ControlError("invalid", "tag \(summer.prefix(8)) belongs to another share than the photo")
            ),
        ]
        for (arguments, error) in cases {
            #expect(try f.daemon.refusal(arguments) == error, "\(arguments)")
        }
        #expect(try f.daemon.snapshot() == before)
        // The data imported before the permission check was thrown away again.
        #expect(files(under: f.daemon.blobDirectory(.shared)) == [])
        #expect(!FileManager.default.fileExists(atPath: directory(f).file("out.jpg")))
    }

    private func directory(_ fixture: Fixture) -> TestDirectory { fixture.directory }
}
