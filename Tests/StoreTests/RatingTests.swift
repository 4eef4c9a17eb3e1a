import TestSupport
import Testing

@testable import Store

/// Ratings: 1…5, many per photo, deleted one by one or with their photo.
@Suite struct RatingTests {
    @Test(arguments: 1...5)
    func aRatingFromOneToFiveIsKept(value: Int) throws {
        let lib = try TestLibrary()
        let photo = try lib.addPhoto("a.jpg")
        let id = try lib.priv.rate(photo: photo, value: value)
        #expect(try lib.priv.ratings(ofPhoto: photo) == [RatingRef(id: id, value: value)])
        #expect(try lib.priv.photo(photo)?.ratings == [RatingRef(id: id, value: value)])
    }

    @Test(arguments: [0, 6, -1, 100])
    func aRatingOutOfRangeIsRefusedAndNothingChanges(value: Int) throws {
        let lib = try TestLibrary()
        let photo = try lib.addPhoto("a.jpg")
        let token = try lib.priv.lastHistoryToken()
        let error = try #require(throws: StoreError.self) { try lib.priv.rate(photo: photo, value: value) }
        #expect(error == .invalid("a rating is 1 to 5, not \(value)"))
        #expect(error.code == "invalid")
        #expect(try lib.priv.ratings(ofPhoto: photo).isEmpty)
        #expect(try lib.priv.lastHistoryToken() == token)
    }

    @Test func theExactMessageForSix() throws {
        let lib = try TestLibrary()
        let photo = try lib.addPhoto("a.jpg")
        let error = try #require(throws: StoreError.self) { try lib.priv.rate(photo: photo, value: 6) }
        #expect(error.description == "a rating is 1 to 5, not 6")
    }

    @Test func aPhotoHasManyRatingsAndEachIsDeletedAlone() throws {
        let lib = try TestLibrary()
        let photo = try lib.addPhoto("a.jpg")
        let other = try lib.addPhoto("b.jpg")
        let ids = try [5, 3, 5].map { try lib.priv.rate(photo: photo, value: $0) }
        let kept = try lib.priv.rate(photo: other, value: 1)
        #expect(try lib.priv.ratings(ofPhoto: photo).map(\.value).sorted() == [3, 5, 5])

        try lib.priv.deleteRating(ids[1])
        #expect(
            try Set(lib.priv.ratings(ofPhoto: photo)) == [
                RatingRef(id: ids[0], value: 5), RatingRef(id: ids[2], value: 5),
            ])
        #expect(try lib.priv.ratings(ofPhoto: other) == [RatingRef(id: kept, value: 1)])

        #expect(throws: StoreError.notFound(kind: "rating", reference: ids[1])) {
            try lib.priv.deleteRating(ids[1])
        }
    }

    @Test func ratingsOfAnUnknownPhotoAreNotFound() throws {
        let lib = try TestLibrary()
        #expect(throws: StoreError.notFound(kind: "photo", reference: "missing")) {
            try lib.priv.ratings(ofPhoto: "missing")
        }
        #expect(throws: StoreError.notFound(kind: "photo", reference: "missing")) {
            try lib.priv.rate(photo: "missing", value: 3)
        }
    }

    @Test func aReadOnlyParticipantCannotRateOrDeleteARating() throws {
        let pair = try SharedPair(permission: .readOnly)
        let rating = try pair.owner.priv.rate(photo: pair.photo, value: 2)
        try sync(pair.zone, from: pair.owner.priv, to: pair.participant.shared)
        let denied = "you have read-only access to this share"
        #expect(throws: StoreError.permissionDenied("cannot rate this photo: \(denied)")) {
            try pair.participant.shared.rate(photo: pair.photo, value: 5)
        }
        #expect(throws: StoreError.permissionDenied("cannot delete this rating: \(denied)")) {
            try pair.participant.shared.deleteRating(rating)
        }
        #expect(try pair.participant.shared.ratings(ofPhoto: pair.photo) == [RatingRef(id: rating, value: 2)])
    }
}
