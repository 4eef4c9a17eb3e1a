import TestSupport
import Testing

@testable import Store

/// IDs people type: unique prefixes, in either store, with clear errors otherwise.
@Suite struct ResolveTests {
    let lib: TestLibrary
    let data: (hash: String, size: Int64)

    init() throws {
        lib = try TestLibrary()
        data = try lib.priv.blobs.store([1, 2, 3])
    }

    /// A photo with a chosen ID, so that prefixes collide on purpose.
    func photo(_ id: String) throws {
        _ = try lib.priv.addPhoto(name: id, data: data, id: id)
    }

    @Test func aUniquePrefixResolvesInAnyCase() throws {
        try photo("abc00000-0000-4000-8000-000000000001")
        try photo("abd00000-0000-4000-8000-000000000002")
        let resolved = try lib.library.resolve(.photo, "abc")
        #expect(resolved.id == "abc00000-0000-4000-8000-000000000001")
        #expect(resolved.store === lib.priv)
        #expect(try lib.library.resolve(.photo, "ABD0").id == "abd00000-0000-4000-8000-000000000002")
        #expect(
            try lib.library.resolve(.photo, "abc00000-0000-4000-8000-000000000001").id
                == "abc00000-0000-4000-8000-000000000001")
    }

    @Test func anAmbiguousPrefixSaysHowManyMatch() throws {
        try photo("abc00000-0000-4000-8000-000000000001")
        try photo("abc11111-0000-4000-8000-000000000002")
        let error = try #require(throws: StoreError.self) { try lib.library.resolve(.photo, "ab") }
        #expect(error == .ambiguous(kind: "photo", reference: "ab", matches: 2))
        #expect(error.description == "'ab' matches 2 photos: give more characters of the ID")
        #expect(error.code == "ambiguous")
        #expect(try lib.library.resolve(.photo, "abc1").id == "abc11111-0000-4000-8000-000000000002")
    }

    @Test func anAmbiguousPrefixCountsEveryMatch() throws {
        for i in 1...7 { try photo("abc0000\(i)-0000-4000-8000-000000000000") }
        let error = try #require(throws: StoreError.self) { try lib.library.resolve(.photo, "abc") }
        #expect(error.description == "'abc' matches 7 photos: give more characters of the ID")
    }

    @Test func anUnknownOrEmptyReferenceIsNotFound() throws {
        try photo("abc00000-0000-4000-8000-000000000001")
        let error = try #require(throws: StoreError.self) { try lib.library.resolve(.photo, "zzz") }
        #expect(error.description == "no photo matches 'zzz'")
        #expect(error.code == "not_found")
        #expect(throws: StoreError.notFound(kind: "photo", reference: "")) {
            try lib.library.resolve(.photo, "")
        }
        #expect(throws: StoreError.notFound(kind: "rating", reference: "abc")) {
            try lib.library.resolve(.rating, "abc")
        }
    }

    @Test func aDeletedPhotoNoLongerResolves() throws {
        try photo("abc00000-0000-4000-8000-000000000001")
        try lib.priv.deletePhoto("abc00000-0000-4000-8000-000000000001")
        #expect(throws: StoreError.notFound(kind: "photo", reference: "abc")) {
            try lib.library.resolve(.photo, "abc")
        }
    }

    @Test func sharesAndTheirPhotosResolveInTheStoreThatHoldsThem() throws {
        let pair = try SharedPair()
        let participant = pair.participant.library
        let share = try participant.resolve(.share, String(pair.zone.prefix(6)))
        #expect(share.id == pair.zone && share.store === pair.participant.shared)
        let photo = try participant.resolve(.photo, String(pair.photo.prefix(6)))
        #expect(photo.id == pair.photo && photo.store === pair.participant.shared)
        #expect(try participant.store(holdingZone: pair.zone) === pair.participant.shared)
        #expect(try pair.owner.library.store(holdingZone: pair.zone) === pair.owner.priv)
        let error = try #require(throws: StoreError.self) { try participant.store(holdingZone: "nope") }
        #expect(error.description == "no zone or share 'nope' in this library")
        #expect(throws: StoreError.notFound(kind: "share", reference: "default")) {
            try pair.owner.library.resolve(.share, "default")
        }
    }

    @Test func aTagResolvesByPrefixOrByNameAmongThePhotosZone() throws {
        let pair = try SharedPair()
        let owner = pair.owner.library
        let summer = try #require(try pair.owner.priv.photo(pair.photo)?.tags.first)
        let photo = try owner.resolve(.photo, pair.photo)
        #expect(try owner.resolveTag(String(summer.id.prefix(8))).id == summer.id)
        #expect(try owner.resolveTag("summer", forPhoto: photo).id == summer.id)
        #expect(throws: StoreError.notFound(kind: "tag", reference: "winter")) {
            try owner.resolveTag("winter", forPhoto: photo)
        }
        #expect(throws: StoreError.notFound(kind: "tag", reference: "summer")) {
            try owner.resolveTag("summer")
        }
    }
}
