import TestSupport
import Testing

@testable import Store

/// Incoming changes to a share's membership: only the owner changes the share record and
/// the participants, except that a participant may leave.
@Suite struct MembershipApplyTests {
    struct Fixture {
        let pair: SharedPair
        let other: TestLibrary
        let stamp: Stamp
        var owner: LibraryStore { pair.owner.priv }
        var zone: String { pair.zone }
        var sender: PeerID { pair.participant.peer }

        init(permission: Permission = .readWrite) throws {
            pair = try SharedPair(permission: permission)
            other = try pair.addParticipant(permission: .readOnly)
            stamp = stampAhead(of: pair.participant.peer)
        }

        func participantRecord(_ peer: PeerID, _ fields: [(UInt8, SQLValue)]) -> ObjectChange {
            ObjectChange(
                entity: .participant, id: LibraryStore.participantID(zone: zone, peer: peer),
                fields: fields.map { FieldChange(field: $0.0, value: $0.1, stamp: stamp) })
        }

        /// Sends `objects` from the participant to the owner, with a valid photo rename.
        func apply(_ objects: [ObjectChange], rename: String? = nil) throws -> ApplyReport {
            var all = objects
            if let rename {
                all.append(
                    ObjectChange(
                        entity: .photo, id: pair.photo,
                        fields: [FieldChange(field: PhotoField.name, value: .text(rename), stamp: stamp)]))
            }
            let set = ChangeSet(
                zone: zone, since: VectorClock(), until: VectorClock([sender: stamp.hlc]), objects: all)
            return try owner.apply(set, from: sender)
        }

        func participants() throws -> [String] {
            try #require(try owner.share(zone)).participants.map {
                "\($0.peer) \($0.permission.rawValue) \($0.status.rawValue)"
            }
            .sorted()
        }
    }

    @Test func aParticipantCannotChangeTheShareRecord() throws {
        let f = try Fixture()
        let before = try f.owner.share(f.zone)
        let report = try f.apply(
            [
                ObjectChange(
                    entity: .share, id: f.zone,
                    fields: [FieldChange(field: ShareField.title, value: .text("Mine now"), stamp: f.stamp)])
            ], rename: "renamed.jpg")
        #expect(
            report.refused.map(\.description) == [
                Refusal(entity: .share, id: f.zone, reason: "only the owner changes the share").description
            ])
        #expect(try f.owner.share(f.zone) == before)
        #expect(try f.owner.photo(f.pair.photo)?.name == "renamed.jpg")
    }

    @Test func aShareRecordOfAnotherZoneIsRefused() throws {
        let f = try Fixture()
        let elsewhere = IDSource().next()
        let report = try f.apply([
            ObjectChange(
                entity: .share, id: elsewhere,
                fields: [FieldChange(field: ShareField.title, value: .text("x"), stamp: f.stamp)])
        ])
        #expect(
            report.refused.map(\.description) == [
                Refusal(entity: .share, id: elsewhere, reason: "share record of another zone").description
            ]
        )
    }

    @Test func aParticipantCannotChangeAnotherParticipantsRecord() throws {
        let f = try Fixture()
        let before = try f.participants()
        let record = f.participantRecord(
            f.other.peer, [(ParticipantField.permission.code, .text(Permission.readWrite.rawValue))])
        let report = try f.apply([record], rename: "still applied.jpg")
        #expect(
            report.refused.map(\.description) == [
                Refusal(entity: .participant, id: record.id, reason: "only the owner changes membership")
                    .description
            ])
        #expect(try f.participants() == before)
        #expect(try f.owner.photo(f.pair.photo)?.name == "still applied.jpg")
    }

    @Test func aParticipantCannotRaiseItsOwnPermissionNorRemoveAnother() throws {
        let f = try Fixture(permission: .readOnly)
        let before = try f.participants()
        let raise = f.participantRecord(f.sender, [(ParticipantField.permission.code, .text("read-write"))])
        let evict = f.participantRecord(f.other.peer, [(ParticipantField.status.code, .text("removed"))])
        let report = try f.apply([raise, evict])
        #expect(Set(report.refused.map(\.id)) == [raise.id, evict.id])
        #expect(report.refused.allSatisfy { $0.reason == "only the owner changes membership" })
        #expect(try f.participants() == before)
    }

    @Test func aMalformedParticipantIDIsRefused() throws {
        let f = try Fixture()
        let bogus = ObjectChange(
            entity: .participant, id: f.zone + "/not-a-peer",
            fields: [FieldChange(field: ParticipantField.status, value: .text("removed"), stamp: f.stamp)])
        let report = try f.apply([bogus])
        #expect(
            report.refused.map(\.description) == [
                Refusal(entity: .participant, id: bogus.id, reason: "malformed participant ID").description
            ])
    }

    @Test(arguments: [Permission.readOnly, .readWrite])
    func aParticipantMayLeave(permission: Permission) throws {
        let f = try Fixture(permission: permission)
        let leave = f.participantRecord(f.sender, [(ParticipantField.status.code, .text("removed"))])
        let report = try f.apply([leave])
        #expect(report.refused.isEmpty)
        #expect(report.applied == 1)
        #expect(
            try f.owner.participant(zone: f.zone, peer: f.sender)
                == Participant(peer: f.sender, permission: permission, status: .removed, person: nil))
        #expect(try f.owner.participant(zone: f.zone, peer: f.other.peer)?.status == .accepted)

        // Having left, it may no longer write.
        let late = stampAhead(of: f.sender, by: 2_000)
        let write = ChangeSet(
            zone: f.zone, since: VectorClock(), until: VectorClock([f.sender: late.hlc]),
            objects: [
                ObjectChange(
                    entity: .photo, id: f.pair.photo,
                    fields: [FieldChange(field: PhotoField.name, value: .text("after leaving"), stamp: late)])
            ])
        let refused = try f.owner.apply(write, from: f.sender)
        #expect(refused.refused.map(\.reason) == ["\(f.sender.short) may not write to this share"])
        #expect(try f.owner.photo(f.pair.photo)?.name == "beach.jpg")

        // Everyone else learns it through the owner.
        try sync(f.zone, from: f.owner, to: f.other.shared)
        #expect(try f.other.shared.participant(zone: f.zone, peer: f.sender)?.status == .removed)
    }

    @Test func aMembershipChangeRelayedByAParticipantIsDropped() throws {
        // Membership written by the owner reaches others only from the owner.
        let f = try Fixture()
        let forged = ObjectChange(
            entity: .participant, id: LibraryStore.participantID(zone: f.zone, peer: f.other.peer),
            fields: [
                FieldChange(
                    field: ParticipantField.permission, value: .text("read-write"),
                    stamp: stampAhead(of: f.pair.owner.peer))
            ])
        let store = f.other.shared
        let set = ChangeSet(
            zone: f.zone, since: VectorClock(), until: VectorClock([f.sender: f.stamp.hlc]), objects: [forged]
        )
        let report = try store.apply(set, from: f.sender)
        #expect(report.applied == 0 && report.stale == 1 && report.refused.isEmpty)
        #expect(try store.participant(zone: f.zone, peer: f.other.peer)?.permission == .readOnly)
    }
}
