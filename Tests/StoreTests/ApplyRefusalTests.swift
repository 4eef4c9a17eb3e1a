import TestSupport
import Testing

@testable import Store

/// Hand-built change sets from a read-write participant to the owner: each bad object is
/// refused with its reason, alone, while a valid object in the same set applies.
@Suite struct ApplyRefusalTests {
    /// The owner O, a read-write participant P, and O's private photo outside the share.
    struct Fixture {
        let pair: SharedPair
        let privatePhoto: String
        let summer: TagRef
        let stamp: Stamp
        var owner: LibraryStore { pair.owner.priv }
        var sender: PeerID { pair.participant.peer }

        init() throws {
            pair = try SharedPair()
            privatePhoto = try pair.owner.addPhoto("private.jpg", bytes: [42])
            summer = try #require(try pair.owner.priv.photo(pair.photo)?.tags.first)
            stamp = stampAhead(of: pair.participant.peer)
        }

        func field(_ code: UInt8, _ value: SQLValue, by peer: PeerID? = nil) -> FieldChange {
            FieldChange(field: code, value: value, stamp: peer.map { stampAhead(of: $0) } ?? stamp)
        }

        func field(_ field: EntityField, _ value: SQLValue, by peer: PeerID? = nil) -> FieldChange {
            self.field(field.code, value, by: peer)
        }

        /// A new rating of the shared photo: the valid object of every set.
        func validRating(_ id: String = IDSource().next()) -> ObjectChange {
            ObjectChange(
                entity: .rating, id: id,
                fields: [field(RatingField.photo, .text(pair.photo)), field(RatingField.value, .integer(3))])
        }

        func set(_ objects: [ObjectChange]) -> ChangeSet {
            ChangeSet(
                zone: pair.zone, since: VectorClock(), until: VectorClock([sender: stamp.hlc]),
                objects: objects)
        }

        func apply(_ objects: [ObjectChange]) throws -> ApplyReport {
            try owner.apply(set(objects), from: sender)
        }

        func dump() throws -> [String] {
            try owner.canonicalDump(zone: pair.zone).split(separator: "\n").map(String.init)
        }
    }

    enum Bad: String, CaseIterable, Sendable {
        case unkeepableField, ratingValue, uppercaseUUID, linkIDMismatch, ratingOfPhotoOutsideZone
        case ratingOfMissingPhoto, objectOfAnotherZone, immutableTagName, fieldTwice, resurrection
        case incompletePhoto

        /// The bad object and the reason it must be refused for.
        func build(_ f: Fixture) -> (ObjectChange, String) {
            let id = IDSource().next()
            switch self {
            case .unkeepableField:
                // Unknown codes below 64 are a newer version's fields and are kept; others not.
                return (
                    ObjectChange(entity: .photo, id: f.pair.photo, fields: [f.field(64, .text("x"))]),
                    "unknown field 64"
                )
            case .ratingValue:
                return (
                    ObjectChange(
                        entity: .rating, id: id,
                        fields: [
                            f.field(RatingField.photo, .text(f.pair.photo)),
                            f.field(RatingField.value, .integer(9)),
                        ]), "invalid value for rating.value"
                )
            case .uppercaseUUID:
                return (
                    ObjectChange(
                        entity: .tag, id: id,
                        fields: [
                            f.field(TagField.uuid, .text(IDSource().next().uppercased())),
                            f.field(TagField.name, .text("caps")),
                        ]), "invalid value for tag.uuid"
                )
            case .linkIDMismatch:
                return (
                    ObjectChange(
                        entity: .link, id: "\(f.pair.photo)-\(id)",
                        fields: [f.field(LinkField.linked, .integer(1))]), "a link's ID must be PHOTO/TAG"
                )
            case .ratingOfPhotoOutsideZone:
                return (
                    ObjectChange(
                        entity: .rating, id: id,
                        fields: [
                            f.field(RatingField.photo, .text(f.privatePhoto)),
                            f.field(RatingField.value, .integer(5)),
                        ]), "refers to photo \(f.privatePhoto), missing in this zone"
                )
            case .ratingOfMissingPhoto:
                return (
                    ObjectChange(
                        entity: .rating, id: id,
                        fields: [
                            f.field(RatingField.photo, .text(id)), f.field(RatingField.value, .integer(5)),
                        ]),
                    "refers to photo \(id), missing in this zone"
                )
            case .objectOfAnotherZone:
                return (
                    ObjectChange(
                        entity: .photo, id: f.privatePhoto,
                        fields: [f.field(PhotoField.name, .text("stolen"))]),
                    "the object belongs to another zone"
                )
            case .immutableTagName:
                return (
                    ObjectChange(
                        entity: .tag, id: f.summer.id, fields: [f.field(TagField.name, .text("winter"))]),
                    "field name cannot change after creation"
                )
            case .fieldTwice:
                return (
                    ObjectChange(
                        entity: .photo, id: f.pair.photo,
                        fields: [f.field(PhotoField.name, .text("a")), f.field(PhotoField.name, .text("b"))]),
                    "field 1 appears twice"
                )
            case .incompletePhoto:
                // Every missing required field is named, in the order of their codes.
                return (
                    ObjectChange(
                        entity: .photo, id: id, fields: [f.field(PhotoField.name, .text("half.jpg"))]),
                    "a new photo lacks unique_name, created_at, data_hash, data_size"
                )
            case .resurrection:
                return (
                    ObjectChange(
                        entity: .photo, id: f.pair.photo, fields: [f.field(Entity.deletedField, .integer(0))]),
                    "invalid value for photo.deleted"
                )
            }
        }
    }

    @Test(arguments: Bad.allCases)
    func aBadObjectIsRefusedWithItsReasonAndTheRestApplies(bad: Bad) throws {
        let f = try Fixture()
        let before = try f.dump()
        let privateBefore = try f.owner.canonicalDump(zone: LibraryStore.defaultZone)
        let (object, reason) = bad.build(f)
        let valid = f.validRating()

        let report = try f.apply([object, valid])
        #expect(
            report.refused.map(\.description) == [
                Refusal(entity: object.entity, id: object.id, reason: reason).description
            ])
        #expect(report.applied == 2)

        let after = try f.dump()
        #expect(after.filter { !$0.contains(valid.id) } == before)
        #expect(after.contains("rating \(valid.id) \(f.pair.photo) 3"))
        #expect(try f.owner.canonicalDump(zone: LibraryStore.defaultZone) == privateBefore)
    }

    /// A rating of a photo this store holds no row of may be of one still on its way (shared
    /// by the owner's other device): refused for now, no verdict. One of a photo of another
    /// zone is refused for good, as every other bad object is.
    @Test(arguments: Bad.allCases)
    func onlyAReferenceToWhatIsNotHereAtAllWaits(bad: Bad) throws {
        let f = try Fixture()
        let (object, _) = bad.build(f)
        let report = try f.apply([object])
        #expect(report.refused.map(\.waitsForReference) == [bad == .ratingOfMissingPhoto])
    }

    @Test func everyBadObjectInOneSetIsRefusedAndOnlyTheValidOneApplies() throws {
        let f = try Fixture()
        let before = try f.dump()
        let built = Bad.allCases.map { $0.build(f) }
        let valid = f.validRating()
        let report = try f.apply(built.map(\.0) + [valid])
        #expect(
            Set(report.refused.map(\.description))
                == Set(built.map { Refusal(entity: $0.0.entity, id: $0.0.id, reason: $0.1).description }))
        #expect(report.refused.count == built.count)
        #expect(report.applied == 2)
        #expect(try f.dump().filter { !$0.contains(valid.id) } == before)
        #expect(try f.owner.photo(f.privatePhoto)?.name == "private.jpg")
    }

    /// A rating without a value would show as 0; a tag without a UUID sorts before every
    /// UUID, so it would win deduplication and swallow the zone's real tag of that name.
    @Test func aNewObjectMissingARequiredFieldIsRefused() throws {
        let f = try Fixture()
        let before = try f.dump()
        let rating = IDSource().next()
        let tag = IDSource().next()
        let valid = f.validRating()
        let report = try f.apply([
            ObjectChange(
                entity: .rating, id: rating, fields: [f.field(RatingField.photo, .text(f.pair.photo))]),
            ObjectChange(entity: .tag, id: tag, fields: [f.field(TagField.name, .text("summer"))]),
            valid,
        ])
        #expect(Set(report.refused.map(\.id)) == [rating, tag], "refused: \(report.refused)")
        let ratings = try f.owner.ratings(ofPhoto: f.pair.photo)
        #expect(ratings.map(\.value) == [3], "ratings: \(ratings)")
        let tags = try f.owner.tags(zone: f.pair.zone)
        #expect(tags.map(\.uuid) == [f.summer.uuid], "tags: \(tags)")
        #expect(try f.owner.photo(f.pair.photo)?.tags == [f.summer])
        #expect(try f.dump().filter { !$0.contains(valid.id) } == before)
    }

    @Test func aFieldWrittenByAnotherPeerIsDroppedNotApplied() throws {
        let f = try Fixture()
        let before = try f.dump()
        let relayed = ObjectChange(
            entity: .photo, id: f.pair.photo,
            fields: [
                f.field(PhotoField.name, .text("forged by owner"), by: f.pair.owner.peer),
                f.field(PhotoField.thumbnail, .blob([1, 2]), by: randomPeer()),
            ])
        let report = try f.apply([relayed])
        #expect(report.refused.isEmpty)
        #expect(report.applied == 0)
        #expect(report.stale == 2)
        #expect(try f.dump() == before)
        #expect(try f.owner.photo(f.pair.photo)?.name == "beach.jpg")

        // In a mixed object, the sender's own field still applies.
        let mixed = ObjectChange(
            entity: .photo, id: f.pair.photo,
            fields: [
                f.field(PhotoField.name, .text("renamed by P")),
                f.field(PhotoField.thumbnail, .blob([9]), by: f.pair.owner.peer),
            ])
        let second = try f.apply([mixed])
        #expect(second.applied == 1 && second.stale == 1 && second.refused.isEmpty)
        #expect(try f.owner.photo(f.pair.photo)?.name == "renamed by P")
        #expect(try f.owner.photo(f.pair.photo)?.thumbnailSize == 0)
    }

    @Test func aNonMemberIsRefused() throws {
        let f = try Fixture()
        let stranger = randomPeer()
        let stamp = stampAhead(of: stranger)
        let set = ChangeSet(
            zone: f.pair.zone, since: VectorClock(), until: VectorClock([stranger: stamp.hlc]),
            objects: [
                ObjectChange(
                    entity: .photo, id: f.pair.photo,
                    fields: [FieldChange(field: PhotoField.name, value: .text("mine"), stamp: stamp)])
            ])
        let report = try f.owner.apply(set, from: stranger)
        #expect(report.refused.map(\.reason) == ["\(stranger.short) may not write to this share"])
        #expect(try f.owner.photo(f.pair.photo)?.name == "beach.jpg")
    }
}
