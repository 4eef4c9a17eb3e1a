import TestSupport
import Testing

@testable import Store

/// Tags of one replica: tag (the sample's addTag), toggle, untag, delete, list with counts.
@Suite struct TagTests {
    let lib: TestLibrary
    let first: String
    let second: String
    let zone = LibraryStore.defaultZone

    init() throws {
        lib = try TestLibrary()
        first = try lib.addPhoto("first.jpg", bytes: [1])
        second = try lib.addPhoto("second.jpg", bytes: [2])
    }

    func tagNames(_ photo: String) throws -> [String] {
        try #require(try lib.priv.photo(photo)).tags.map(\.name)
    }

    func counts() throws -> [String] { try lib.priv.tags(zone: zone).map { "\($0.name)=\($0.photoCount)" } }

    @Test func taggingReusesTheZonesTagOfThatName() throws {
        let a = try lib.priv.tag(photo: first, name: "sunset")
        let b = try lib.priv.tag(photo: second, name: "sunset")
        #expect(a == b)
        #expect(try lib.priv.tags(zone: zone).map(\.id) == [a.id])
        #expect(try counts() == ["sunset=2"])
    }

    @Test func aNewNameMakesANewTagWithANewCanonicalUUID() throws {
        let sunset = try lib.priv.tag(photo: first, name: "sunset")
        let sunrise = try lib.priv.tag(photo: first, name: "sunrise")
        let capitalised = try lib.priv.tag(photo: first, name: "Sunset")
        #expect(Set([sunset.id, sunrise.id, capitalised.id]).count == 3)
        #expect(Set([sunset.uuid, sunrise.uuid, capitalised.uuid]).count == 3)
        for tag in [sunset, sunrise, capitalised] {
            #expect(LibraryStore.isCanonicalUUID(tag.uuid), "\(tag.uuid)")
            #expect(tag.uuid != tag.id)
        }
        #expect(try tagNames(first) == ["Sunset", "sunrise", "sunset"])
    }

    @Test func taggingAPhotoThatCarriesTheTagWritesNothing() throws {
        let tag = try lib.priv.tag(photo: first, name: "sunset")
        let token = try lib.priv.lastHistoryToken()
        #expect(try lib.priv.tag(photo: first, name: "sunset") == tag)
        #expect(try lib.priv.lastHistoryToken() == token)
        #expect(try counts() == ["sunset=1"])
    }

    @Test func toggleRemovesACarriedTagAndPutsItBack() throws {
        let tag = try lib.priv.tag(photo: first, name: "sunset")
        #expect(try lib.priv.toggle(photo: first, tag: tag.id) == false)
        #expect(try tagNames(first) == [])
        #expect(try counts() == ["sunset=0"])
        #expect(try lib.priv.toggle(photo: first, tag: tag.id) == true)
        #expect(try lib.priv.photo(first)?.tags == [tag])
        #expect(try lib.priv.toggle(photo: second, tag: tag.id) == true)
        #expect(try counts() == ["sunset=2"])
    }

    @Test func togglingATagOfAnotherZoneIsRefused() throws {
        let pair = try SharedPair()
        let inShare = try #require(try pair.owner.priv.photo(pair.photo)?.tags.first)
        let local = try pair.owner.addPhoto("local.jpg")
        #expect(
            throws: StoreError.invalid("tag \(inShare.id.prefix(8)) belongs to another share than the photo")
        ) {
            try pair.owner.priv.toggle(photo: local, tag: inShare.id)
        }
        #expect(try pair.owner.priv.photo(local)?.tags == [])
    }

    @Test func untaggingATagThePhotoDoesNotCarryIsRefused() throws {
        let tag = try lib.priv.tag(photo: second, name: "sunset")
        let token = try lib.priv.lastHistoryToken()
        let error = try #require(throws: StoreError.self) { try lib.priv.untag(photo: first, tag: tag.id) }
        #expect(error == .invalid("photo \(first.prefix(8)) does not carry tag \(tag.id.prefix(8))"))
        #expect(try lib.priv.lastHistoryToken() == token)
        #expect(try counts() == ["sunset=1"])
    }

    @Test func untagRemovesTheTagFromThatPhotoOnly() throws {
        let tag = try lib.priv.tag(photo: first, name: "sunset")
        _ = try lib.priv.tag(photo: second, name: "sunset")
        try lib.priv.untag(photo: first, tag: tag.id)
        #expect(try tagNames(first) == [])
        #expect(try tagNames(second) == ["sunset"])
        #expect(try counts() == ["sunset=1"])
    }

    @Test func deletingATagRemovesItFromEveryPhoto() throws {
        let sunset = try lib.priv.tag(photo: first, name: "sunset")
        _ = try lib.priv.tag(photo: second, name: "sunset")
        _ = try lib.priv.tag(photo: second, name: "sea")
        try lib.priv.deleteTag(sunset.id)
        #expect(try tagNames(first) == [])
        #expect(try tagNames(second) == ["sea"])
        #expect(try counts() == ["sea=1"])
        #expect(try lib.priv.photos(tagName: "sunset").isEmpty)
        #expect(throws: StoreError.notFound(kind: "tag", reference: sunset.id)) {
            try lib.priv.deleteTag(sunset.id)
        }
        // The name is free again: tagging makes a new tag.
        let again = try lib.priv.tag(photo: first, name: "sunset")
        #expect(again.id != sunset.id && again.uuid != sunset.uuid)
    }

    @Test func photoCountsIgnoreDeletedPhotos() throws {
        _ = try lib.priv.tag(photo: first, name: "sunset")
        _ = try lib.priv.tag(photo: second, name: "sunset")
        _ = try lib.priv.tag(photo: second, name: "sea")
        #expect(try counts() == ["sea=1", "sunset=2"])
        try lib.priv.deletePhoto(second)
        #expect(try counts() == ["sea=0", "sunset=1"])
    }

    @Test func tagsAreListedPerZone() throws {
        let pair = try SharedPair()
        let local = try pair.owner.addPhoto("local.jpg", tags: ["home"])
        _ = local
        let all = try pair.owner.priv.tags()
        #expect(Set(all.map { "\($0.zone):\($0.name)" }) == ["default:home", "\(pair.zone):summer"])
        #expect(try pair.owner.priv.tags(zone: pair.zone).map(\.name) == ["summer"])
        #expect(try pair.owner.priv.tags(named: "home").map(\.zone) == [LibraryStore.defaultZone])
    }

    @Test func anInvalidTagNameIsRefused() throws {
        #expect(throws: StoreError.invalid("a tag name cannot be empty")) {
            try lib.priv.tag(photo: first, name: " ")
        }
        #expect(throws: StoreError.invalid("a tag name cannot contain control characters or line breaks")) {
            try lib.priv.tag(photo: first, name: "a\nb")
        }
        #expect(try lib.priv.tags().isEmpty)
    }

    @Test func taggingADeletedPhotoIsRefused() throws {
        try lib.priv.deletePhoto(first)
        #expect(throws: StoreError.notFound(kind: "photo", reference: first)) {
            try lib.priv.tag(photo: first, name: "sunset")
        }
        #expect(try lib.priv.tags().isEmpty)
    }
}
