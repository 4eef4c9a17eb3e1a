import Synchronization
import TestSupport
import Testing

@testable import Store

/// The jobs of thumbnails this device makes: queued with the photo, kept over a crash, ended
/// by the thumbnail, and never made for photos that come from peers.
@Suite struct ThumbnailJobTests {
    private let thumbnail: [UInt8] = [0xFF, 0xD8, 0x01, 0x02, 0xFF, 0xD9]

    @Test func aPhotoAddedWithoutAThumbnailGetsAJobAndOneWithAThumbnailDoesNot() throws {
        let lib = try TestLibrary()
        let queued = Mutex(0)
        lib.priv.observeThumbnailJobs { queued.withLock { $0 += 1 } }
        let without = try lib.addPhoto("plain.jpg")
        let file = try lib.directory.write("given.jpg", bytes: [7, 7, 7])
        _ = try lib.library.addPhoto(file: file, name: "given.jpg", thumbnail: thumbnail)
        #expect(try lib.priv.thumbnailJobs(limit: 10) == [without])
        #expect(queued.withLock { $0 } == 1)
    }

    @Test func aJobSurvivesAnUncleanStopAndIsDrainedByItsThumbnail() throws {
        let lib = try TestLibrary()
        let photo = try lib.addPhoto("crash.jpg")
        // A second open of the same files, the first never closed: what a restart after
        // kill -9 finds.
        let reopened = try Library(directory: lib.directory.file("state"), localPeer: lib.peer)
        #expect(try reopened.privateStore.thumbnailJobs(limit: 10) == [photo])
        #expect(try reopened.privateStore.dataFile(ofPhoto: photo) != nil)
        #expect(try reopened.privateStore.setThumbnail(ofPhoto: photo, thumbnail) == .stored)
        #expect(try reopened.privateStore.thumbnailJobs(limit: 10).isEmpty)
        #expect(try reopened.privateStore.thumbnail(ofPhoto: photo) == thumbnail)
    }

    @Test func aDeletedPhotosJobEndsWithoutAThumbnail() throws {
        let lib = try TestLibrary()
        let photo = try lib.addPhoto("gone.jpg")
        try lib.priv.deletePhoto(photo)
        #expect(try lib.priv.dataFile(ofPhoto: photo) == nil)
        #expect(try lib.priv.setThumbnail(ofPhoto: photo, thumbnail) == .photoGone)
        #expect(try lib.priv.thumbnailJobs(limit: 10).isEmpty)
    }

    @Test func droppingAJobLeavesThePhotoWithoutAThumbnail() throws {
        let lib = try TestLibrary()
        let first = try lib.addPhoto("text.jpg", bytes: Array("not an image".utf8))
        let second = try lib.addPhoto("next.jpg")
        #expect(try lib.priv.thumbnailJobs(limit: 10, skipping: [first]) == [second])
        try lib.priv.dropThumbnailJob(first)
        #expect(try lib.priv.thumbnailJobs(limit: 10) == [second])
        #expect(try lib.priv.thumbnail(ofPhoto: first) == nil)
    }

    @Test func aThumbnailOverTheLimitIsRefusedAndTheJobKept() throws {
        let lib = try TestLibrary(limits: StoreLimits(maxThumbnailBytes: 4))
        let photo = try lib.addPhoto("big.jpg")
        #expect(throws: StoreError.self) { try lib.priv.setThumbnail(ofPhoto: photo, thumbnail) }
        #expect(try lib.priv.thumbnailJobs(limit: 10) == [photo])
    }

    @Test func theThumbnailReplicatesAndTheParticipantQueuesNoJob() throws {
        let pair = try SharedPair()
        let photo = try pair.addSharedPhoto("shared.jpg")
        #expect(try pair.owner.priv.setThumbnail(ofPhoto: photo, thumbnail) == .stored)
        try sync(pair.zone, from: pair.owner.priv, to: pair.participant.shared)
        #expect(try pair.participant.shared.thumbnail(ofPhoto: photo) == thumbnail)
        #expect(try pair.participant.shared.thumbnailJobs(limit: 10).isEmpty)
        #expect(try pair.participant.priv.thumbnailJobs(limit: 10).isEmpty)
    }
}
