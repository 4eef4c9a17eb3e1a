import Foundation
import TestSupport
import Testing

@testable import Store

/// Photos: adding from a file, reading back, renaming, deleting with the sample's cascades.
@Suite struct PhotoTests {
    @Test func anAddedPhotoShowsItsAttributesTagsAndThumbnail() throws {
        let lib = try TestLibrary()
        let bytes = pseudoRandomBytes(count: 40_000, seed: 11)
        let thumbnail: [UInt8] = [0xFF, 0xD8, 0x00, 0x10, 0xFF, 0xD9]
        let file = try lib.directory.write("IMG_0001.JPG", bytes: bytes)
        let id = try lib.library.addPhoto(
            file: file, name: "Beach at dusk", thumbnail: thumbnail, tags: ["sunset", "beach", "sunset"])

        let photo = try #require(try lib.priv.photo(id))
        #expect(photo.id == id)
        #expect(photo.name == "Beach at dusk")
        #expect(photo.zone == LibraryStore.defaultZone)
        #expect(photo.store == .private)
        #expect(photo.size == Int64(bytes.count))
        #expect(photo.sha256 == sha256Hex(bytes))
        #expect(photo.pending == false)
        #expect(photo.tags.map(\.name) == ["beach", "sunset"])
        #expect(photo.ratings.isEmpty)
        #expect(photo.thumbnailSize == thumbnail.count)
        #expect(photo.uniqueName != id && !photo.uniqueName.isEmpty)
        #expect(try lib.priv.thumbnail(ofPhoto: id) == thumbnail)
        #expect(try lib.priv.photos() == [photo])
        #expect(try lib.priv.tags(zone: LibraryStore.defaultZone).map(\.photoCount) == [1, 1])
    }

    @Test func withoutANameThePhotoIsNamedAfterItsFile() throws {
        let lib = try TestLibrary()
        let id = try lib.library.addPhoto(file: try lib.directory.write("IMG_0002.JPG", bytes: [1, 2, 3]))
        #expect(try lib.priv.photo(id)?.name == "IMG_0002.JPG")
        #expect(try lib.priv.thumbnail(ofPhoto: id) == nil)
    }

    @Test func renamingChangesOnlyTheName() throws {
        let lib = try TestLibrary()
        let id = try lib.addPhoto("old.jpg", tags: ["kept"])
        let before = try #require(try lib.priv.photo(id))
        try lib.priv.renamePhoto(id, to: "new name.jpg")
        let after = try #require(try lib.priv.photo(id))
        #expect(after.name == "new name.jpg")
        #expect(after.uniqueName == before.uniqueName)
        #expect(after.sha256 == before.sha256 && after.tags == before.tags)
    }

    @Test func deletingAPhotoRemovesItsRatingsAndLinksButKeepsItsTags() throws {
        let lib = try TestLibrary()
        let doomed = try lib.addPhoto("doomed.jpg", bytes: [1], tags: ["shared", "alone"])
        let other = try lib.addPhoto("other.jpg", bytes: [2], tags: ["shared"])
        let rating = try lib.priv.rate(photo: doomed, value: 4)
        try lib.priv.deletePhoto(doomed)

        #expect(try lib.priv.photo(doomed) == nil)
        #expect(try lib.priv.photos().map(\.id) == [other])
        #expect(throws: StoreError.notFound(kind: "rating", reference: rating)) {
            try lib.priv.deleteRating(rating)
        }
        let counts = try lib.priv.tags(zone: LibraryStore.defaultZone).map { "\($0.name)=\($0.photoCount)" }
        #expect(counts == ["alone=0", "shared=1"])
        let dump = try lib.priv.canonicalDump(zone: LibraryStore.defaultZone)
        #expect(!dump.contains(doomed))
        #expect(!dump.contains("rating "))
        #expect(throws: StoreError.notFound(kind: "photo", reference: doomed)) {
            try lib.priv.deletePhoto(doomed)
        }
    }

    @Test func deletingThePhotoRemovesItsDataUnlessAnotherPhotoHasTheSameBytes() throws {
        let lib = try TestLibrary()
        let bytes = pseudoRandomBytes(count: 1_000, seed: 12)
        let first = try lib.addPhoto("first.jpg", bytes: bytes)
        let second = try lib.addPhoto("second.jpg", bytes: bytes)
        let hash = sha256Hex(bytes)
        let blobFile = String(hash.prefix(2)) + "/" + hash
        #expect(files(under: lib.blobRoot(.private)) == [blobFile])

        try lib.priv.deletePhoto(first)
        #expect(files(under: lib.blobRoot(.private)) == [blobFile])
        #expect(try lib.priv.photo(second)?.pending == false)

        try lib.priv.deletePhoto(second)
        #expect(files(under: lib.blobRoot(.private)).isEmpty)
    }

    @Test func photosCanBeListedByTagNameAndByZone() throws {
        let pair = try SharedPair()
        let lib = pair.owner
        let red = try lib.addPhoto("red.jpg", bytes: [1], tags: ["red", "warm"])
        let orange = try lib.addPhoto("orange.jpg", bytes: [2], tags: ["warm"])
        let blue = try lib.addPhoto("blue.jpg", bytes: [3], tags: ["blue"])
        #expect(Set(try lib.priv.photos(tagName: "warm").map(\.id)) == [red, orange])
        #expect(try lib.priv.photos(tagName: "blue").map(\.id) == [blue])
        #expect(try lib.priv.photos(tagName: "none").isEmpty)
        #expect(Set(try lib.priv.photos(zone: LibraryStore.defaultZone).map(\.id)) == [red, orange, blue])
        #expect(try lib.priv.photos(zone: pair.zone).map(\.id) == [pair.photo])
        #expect(try lib.priv.photos(zone: pair.zone, tagName: "summer").map(\.id) == [pair.photo])
        #expect(try lib.priv.photos(zone: pair.zone, tagName: "warm").isEmpty)
        #expect(try lib.priv.photos().count == 4)
    }

    static let invalidNames: [(String, String)] = [
        ("", "a photo name cannot be empty"),
        ("   \t ", "a photo name cannot be empty"),
        ("two\nlines", "a photo name cannot contain control characters or line breaks"),
        ("bell\u{7}", "a photo name cannot contain control characters or line breaks"),
        (
            String(repeating: "é", count: 513),
            "a photo name is at most 1024 bytes, this one has 1026 (max_name_bytes)"
        ),
    ]

    @Test(arguments: invalidNames)
    func anInvalidPhotoNameIsRefusedAndNothingChanges(name: String, message: String) throws {
        let lib = try TestLibrary()
        let existing = try lib.addPhoto("existing.jpg")
        let token = try lib.priv.lastHistoryToken()
        let file = try lib.directory.write("new.jpg", bytes: pseudoRandomBytes(count: 100, seed: 13))

        #expect(throws: StoreError.invalid(message)) { try lib.library.addPhoto(file: file, name: name) }
        #expect(throws: StoreError.invalid(message)) { try lib.priv.renamePhoto(existing, to: name) }
        let tagMessage = message.replacingOccurrences(of: "photo name", with: "tag name")
        #expect(throws: StoreError.invalid(tagMessage)) {
            try lib.library.addPhoto(file: file, name: "fine.jpg", tags: ["ok", name])
        }

        #expect(try lib.priv.photos().map(\.name) == ["existing.jpg"])
        #expect(try lib.priv.tags().isEmpty)
        #expect(try lib.priv.lastHistoryToken() == token)
        #expect(files(under: lib.blobRoot(.private)) == [try #require(try lib.priv.photo(existing)).blobFile])
    }

    /// DEL and NEL are control characters (Unicode category Cc) as much as "\n" is;
    /// U+2028 and U+2029 are line breaks.
    @Test(arguments: [0x7F, 0x85, 0x9B, 0x2028, 0x2029] as [UInt32])
    func aNameWithANonASCIIControlOrLineBreakIsRefused(scalar: UInt32) throws {
        let name = "before" + String(Unicode.Scalar(scalar)!) + "after"
        let lib = try TestLibrary()
        let file = try lib.directory.write("new.jpg", bytes: [1])
        #expect(throws: StoreError.invalid("a photo name cannot contain control characters or line breaks")) {
            try lib.library.addPhoto(file: file, name: name)
        }
        #expect(try lib.priv.photos().isEmpty)
    }

    @Test func aNameOfExactlyTheLimitIsAccepted() throws {
        let lib = try TestLibrary()
        let name = String(repeating: "é", count: 512)
        let id = try lib.addPhoto(name)
        #expect(try lib.priv.photo(id)?.name == name)
    }

    @Test func aPhotoOverTheSizeLimitIsRefusedAndLeavesNoData() throws {
        let lib = try TestLibrary(limits: StoreLimits(maxPhotoBytes: 1_000))
        let file = try lib.directory.write("huge.jpg", bytes: pseudoRandomBytes(count: 1_500, seed: 14))
        let error = try #require(throws: StoreError.self) { try lib.library.addPhoto(file: file) }
        #expect(error == .photoTooLarge(size: 1_500, limit: 1_000))
        #expect(
            error.description
                == "the photo is 1500 bytes, over the limit of 1000 bytes (max_photo_bytes in the config)")
        #expect(files(under: lib.blobRoot(.private)).isEmpty)
        #expect(try lib.priv.photos().isEmpty)
        #expect(try lib.priv.lastHistoryToken() == 0)
    }

    @Test func aThumbnailOverItsLimitIsRefusedAndTheImportedDataRemoved() throws {
        let lib = try TestLibrary(limits: StoreLimits(maxThumbnailBytes: 8))
        let file = try lib.directory.write("a.jpg", bytes: [1, 2, 3])
        #expect(throws: StoreError.invalid("the thumbnail is 9 bytes, over the limit of 8")) {
            try lib.library.addPhoto(file: file, thumbnail: [UInt8](repeating: 7, count: 9))
        }
        #expect(files(under: lib.blobRoot(.private)).isEmpty)
        #expect(try lib.priv.photos().isEmpty)
    }

    @Test func anUnreadableFileIsRefusedWithTheReason() throws {
        let lib = try TestLibrary()
        let missing = lib.directory.path + "/nowhere/IMG.JPG"
        #expect(throws: StoreError.unreadableFile(path: missing, reason: "No such file or directory")) {
            try lib.library.addPhoto(file: missing)
        }
        let error = try #require(throws: StoreError.self) {
            try lib.library.addPhoto(file: lib.directory.path)
        }
        #expect(error.description == "cannot read \(lib.directory.path): it is a directory")
        #expect(error.code == "unreadable_file")
        #expect(try lib.priv.photos().isEmpty)
        #expect(files(under: lib.blobRoot(.private)).isEmpty)
    }

    @Test func aReadOnlyParticipantCannotAddAPhotoAndKeepsNoData() throws {
        let pair = try SharedPair(permission: .readOnly)
        let lib = pair.participant
        let file = try lib.directory.write("mine.jpg", bytes: [9, 9, 9])
        #expect(
            throws: StoreError.permissionDenied("cannot add a photo: you have read-only access to this share")
        ) {
            try lib.library.addPhoto(file: file, share: pair.zone)
        }
        #expect(files(under: lib.blobRoot(.shared)).isEmpty)
        #expect(try lib.shared.photos(zone: pair.zone).map(\.id) == [pair.photo])
    }

    @Test func aReadWriteParticipantAddsAPhotoToTheShareByPrefix() throws {
        let pair = try SharedPair()
        let lib = pair.participant
        let bytes = pseudoRandomBytes(count: 300, seed: 15)
        let id = try lib.library.addPhoto(
            file: try lib.directory.write("mine.jpg", bytes: bytes), share: String(pair.zone.prefix(8)))
        let photo = try #require(try lib.shared.photo(id))
        #expect(photo.zone == pair.zone && photo.store == .shared && photo.pending == false)
        #expect(files(under: lib.blobRoot(.shared)) == [photo.blobFile])
    }

    @Test func operationsOnAnUnknownPhotoNameIt() throws {
        let lib = try TestLibrary()
        #expect(throws: StoreError.notFound(kind: "photo", reference: "nope")) {
            try lib.priv.renamePhoto("nope", to: "x")
        }
        let error = try #require(throws: StoreError.self) { try lib.priv.deletePhoto("nope") }
        #expect(error.description == "no photo matches 'nope'")
    }
}

extension Photo {
    /// Where its data lives under the store's blob root.
    var blobFile: String { String(sha256.prefix(2)) + "/" + sha256 }
}
