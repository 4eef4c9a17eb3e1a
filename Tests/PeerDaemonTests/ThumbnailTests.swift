import ControlProtocol
import Foundation
import Store
import TestSupport
import Testing
import Thumbnails

/// Thumbnails the daemon makes of photos added without one (SPEC §14), through the real CLI
/// and daemon: made off the request path, absent for what is not an image, never replacing a
/// given one, made for what a crash left, and received by the participants of a share.
@Suite(.onOwnThreads) struct ThumbnailTests {
    /// A JPEG photo of `width`×`height` written to `name`.
    private func jpeg(_ name: String, in directory: TestDirectory, width: Int = 1600, height: Int = 1200)
        throws
        -> String
    {
        try directory.write(name, bytes: try SampleImage.make(width: width, height: height))
    }

    private func thumbnailSize(_ photo: String, _ daemon: DaemonProcess) throws -> Int {
        try daemon.json("photo", "show", photo)["thumbnail_size"]?.intValue ?? -1
    }

    private func peerID(_ daemon: DaemonProcess) throws -> PeerID {
        try PeerID(parsing: try #require(try daemon.json("id")["peer_id"]?.stringValue))
    }

    @Test func aJPEGAddedWithoutAThumbnailGetsA320PixelOne() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let peer = try peerID(daemon)
        let photo = try daemon.addPhoto(try jpeg("IMG_0001.jpg", in: directory))
        try waitUntil("a thumbnail for \(photo)", timeout: .seconds(60)) {
            try thumbnailSize(photo, daemon) > 0
        }
        try daemon.stop()
        let library = try OfflineLibrary.open(daemon, peer: peer)
        let thumbnail = try #require(try library.privateStore.thumbnail(ofPhoto: photo))
        #expect(thumbnail.count == (try thumbnailSize(photo, daemon: library)))
        #expect(SampleImage.dimensions(of: thumbnail)! == (320, 240))
        #expect(try library.privateStore.thumbnailJobs(limit: 10).isEmpty)
    }

    @Test func aFileThatIsNotAnImageIsKeptWithoutAThumbnailAndItsJobEnds() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let peer = try peerID(daemon)
        let photo = try daemon.addPhoto(try directory.write("notes.jpg", "not a picture\n"))
        try daemon.waitForLog("no thumbnail: the photo's data is not an image", timeout: .seconds(60))
        #expect(try daemon.json("photo", "show", photo)["name"] == "notes.jpg")
        #expect(try thumbnailSize(photo, daemon) == 0)
        try daemon.stop()
        let library = try OfflineLibrary.open(daemon, peer: peer)
        #expect(try library.privateStore.thumbnailJobs(limit: 10).isEmpty)
        #expect(try library.privateStore.thumbnail(ofPhoto: photo) == nil)
    }

    @Test func aThumbnailGivenWithThePhotoIsKept() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let given = try directory.write("given.jpg", bytes: randomBytes(2048))
        let first = try daemon.addPhoto(try jpeg("first.jpg", in: directory), "--thumbnail", given)
        let second = try daemon.addPhoto(try jpeg("second.jpg", in: directory))
        try waitUntil("a thumbnail for \(second)", timeout: .seconds(60)) {
            try thumbnailSize(second, daemon) > 0
        }
        #expect(try thumbnailSize(first, daemon) == 2048)
    }

    @Test func aJobLeftByAnEarlierRunIsDoneAtStart() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let peer = try peerID(daemon)
        try daemon.stop()
        // Added while no daemon ran: the job waits in the store, as after a kill -9.
        var library: Library? = try OfflineLibrary.open(daemon, peer: peer)
        let photo = try library!.addPhoto(file: try jpeg("left.jpg", in: directory), name: "left.jpg")
        library?.close()
        library = nil
        let restarted = try daemon.restart(label: "restarted")
        try waitUntil("a thumbnail for \(photo)", timeout: .seconds(60)) {
            try thumbnailSize(photo, restarted) > 0
        }
        try restarted.stop()
    }

    @Test func aParticipantReceivesTheThumbnailTheOwnerMade() throws {
        let alice = try SharingPeer("alice")
        let bob = try SharingPeer("bob")
        alice.join([alice, bob])
        bob.join([alice, bob])
        let photo = try alice.addPhoto(
            "beach.jpg", bytes: try SampleImage.make(width: 1200, height: 900))
        let created = try alice.json("share", "create", photo, "--title", "Holidays")
        let share = try #require(created["share"]?.stringValue)
        let url = try #require(created["url"]?.stringValue)
        _ = try alice.json("share", "invite", share, bob.id, "--permission", "read-only")
        _ = try bob.json("accept", url)
        try waitUntil("alice's thumbnail", timeout: .seconds(60)) {
            (try alice.json("photo", "show", photo)["thumbnail_size"]?.intValue ?? 0) > 0
        }
        let made = try alice.json("photo", "show", photo)["thumbnail_size"]
        try waitUntil("bob receives alice's thumbnail", timeout: .seconds(60)) {
            try bob.json("photo", "list").arrayValue?.first?["thumbnail_size"] == made
        }
        #expect(try bob.json("photo", "show", photo)["store"] == "shared")
    }

    /// The thumbnail size as the store reports it (what `photo show` prints).
    private func thumbnailSize(_ photo: String, daemon library: Library) throws -> Int {
        try library.privateStore.photo(photo)?.thumbnailSize ?? -1
    }
}
