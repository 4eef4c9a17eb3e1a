import TestSupport
import Testing

@testable import Store

/// What one replica sends another: batches valid on their own, applied in order only.
@Suite struct ChangeBatchTests {
    /// An owner with a share of several tagged and rated photos, and an accepted participant
    /// that has received nothing yet.
    final class Fixture {
        let owner: TestLibrary
        let participant: TestLibrary
        let zone: String

        init() throws {
            owner = try TestLibrary()
            participant = try TestLibrary()
            let first = try owner.addPhoto("p0.jpg", bytes: [0], tags: ["t0", "common"])
            zone = try owner.priv.createShare(photo: first, title: "Batches", publicPermission: .none)
            for i in 1..<6 {
                let photo = try owner.addPhoto("p\(i).jpg", bytes: [UInt8(i)], tags: ["t\(i)", "common"])
                try owner.priv.addToShare(photo: photo, zone: zone)
                _ = try owner.priv.rate(photo: photo, value: i % 5 + 1)
            }
            try owner.priv.setParticipant(
                zone: zone, peer: participant.peer, permission: .readWrite, status: .accepted)
            try participant.shared.prepareParticipantZone(zone, owner: owner.peer)
        }
    }

    @Test func smallBatchesAppliedInOrderGiveTheSameZone() throws {
        let f = try Fixture()
        let sets = try f.owner.priv.changes(zone: f.zone, since: VectorClock(), batchSize: 3)
        #expect(sets.count > 3)
        #expect(sets.first?.since == VectorClock())
        #expect(sets.last?.until == (try f.owner.priv.clock(of: f.zone)))
        for (earlier, later) in zip(sets, sets.dropFirst()) {
            #expect(later.since == earlier.since.merged(with: earlier.until))
        }
        for set in sets {
            let report = try f.participant.shared.apply(set, from: f.owner.peer)
            #expect(report.refused.isEmpty, "\(report.refused)")
        }
        #expect(
            try f.participant.shared.canonicalDump(zone: f.zone) == f.owner.priv.canonicalDump(zone: f.zone))
        #expect(try f.participant.shared.clock(of: f.zone) == f.owner.priv.clock(of: f.zone))
        // Nothing more to send.
        let rest = try f.owner.priv.changes(zone: f.zone, since: try f.participant.shared.clock(of: f.zone))
        #expect(rest.map(\.changeCount) == [0])
    }

    /// Every field a batch's `until` claims has arrived by that batch, and a new object
    /// arrives whole in its first batch.
    @Test func aBatchHoldsEverythingItsClockClaimsAndWholeObjects() throws {
        let f = try Fixture()
        let sets = try f.owner.priv.changes(zone: f.zone, since: VectorClock(), batchSize: 1)
        #expect(sets.count > 2)
        let everything = try f.owner.priv.changes(zone: f.zone, since: VectorClock()).flatMap(\.objects)
        Self.expectWholeObjectsAndClaimsKept(sets, everything: everything)
    }

    /// Sent in this order, `sets` bring each object whole at its first appearance, and every
    /// field a set's `until` claims by that set.
    static func expectWholeObjectsAndClaimsKept(_ sets: [ChangeSet], everything: [ObjectChange]) {
        var delivered: Set<String> = []
        var seenObjects: Set<String> = []
        for set in sets {
            for object in set.objects {
                for field in object.fields { delivered.insert("\(object.id)#\(field.field)#\(field.stamp)") }
                if seenObjects.insert(object.id).inserted {
                    let whole = everything.first { $0.id == object.id }!
                    #expect(Set(object.fields) == Set(whole.fields), "\(object.id) arrived in parts")
                }
            }
            for object in everything {
                for field in object.fields where set.until.covers(field.stamp) {
                    #expect(
                        delivered.contains("\(object.id)#\(field.field)#\(field.stamp)"),
                        "claimed before sent")
                }
            }
        }
        #expect(Set(everything.map(\.id)) == seenObjects)
    }

    @Test func aBatchWhosePredecessorIsMissingIsNotAppliedAndChangesNothing() throws {
        let f = try Fixture()
        let sets = try f.owner.priv.changes(zone: f.zone, since: VectorClock(), batchSize: 3)
        let store = f.participant.shared
        let token = try store.lastHistoryToken()
        let error = try #require(throws: SyncError.self) { try store.apply(sets[1], from: f.owner.peer) }
        #expect(error == .notReady(zone: f.zone, have: VectorClock(), need: sets[1].since))
        #expect(error.description.hasPrefix("change set for zone \(f.zone) needs clock "))
        #expect(error.description.hasSuffix(": resync from its clock"))
        #expect(try store.clock(of: f.zone) == VectorClock())
        #expect(try store.lastHistoryToken() == token)
        #expect(try store.photos(zone: f.zone).isEmpty)
    }

    /// A receiver applies the sets waiting for it in one transaction (up to
    /// `SessionConfiguration.maximumChangesPerApply` field changes): the zone and each set's
    /// answer are what applying them one by one gives.
    @Test func setsAppliedTogetherGiveWhatTheyGiveOneByOne() throws {
        let f = try Fixture()
        let sets = try f.owner.priv.changes(zone: f.zone, since: VectorClock(), batchSize: 3)
        #expect(sets.count > 3)
        let reports = try f.participant.shared.apply(sets, from: f.owner.peer).map { try $0.get() }
        #expect(reports.count == sets.count)
        #expect(reports.allSatisfy { $0.refused.isEmpty })
        #expect(
            try f.participant.shared.canonicalDump(zone: f.zone) == f.owner.priv.canonicalDump(zone: f.zone))
        #expect(try f.participant.shared.clock(of: f.zone) == f.owner.priv.clock(of: f.zone))
        // Each set answers as if alone: applying them all again changes nothing.
        let again = f.participant.shared.apply(sets, from: f.owner.peer)
        #expect(try again.map { try $0.get().refused.count } == Array(repeating: 0, count: sets.count))
        #expect(
            try f.participant.shared.canonicalDump(zone: f.zone) == f.owner.priv.canonicalDump(zone: f.zone))
    }

    /// One set of a group that cannot be applied (its predecessor is missing) does not take
    /// the others down with it: the group is applied set by set, the sets before the gap
    /// are kept, and the ones after it are answered as not ready. Handed over one by one as
    /// they arrive (at a second receiver), every set handed over is still taken and answered.
    @Test func aGroupWithAGapKeepsTheSetsBeforeItAndAnswersTheRestNotReady() throws {
        let f = try Fixture()
        let sets = try f.owner.priv.changes(zone: f.zone, since: VectorClock(), batchSize: 3)
        #expect(sets.count > 3)
        let group = [sets[0], sets[2], sets[3]]
        let twin = try Self.twin(of: f)
        var handed = group.map { [$0] } + [[]]
        let taken = twin.shared.apply(from: f.owner.peer) { handed.removeFirst() }
        #expect(handed.isEmpty)
        #expect(taken.map(\.set) == group)
        let answered = [
            (f.participant.shared.apply(group, from: f.owner.peer), f.participant.shared),
            (taken.map(\.result), twin.shared),
        ]
        for (results, store) in answered {
            #expect(results.count == 3)
            #expect(try results[0].get().refused.isEmpty)
            for result in results.dropFirst() {
                #expect(throws: SyncError.self) { try result.get() }
            }
            #expect(try store.clock(of: f.zone) == sets[0].until)
        }
        // The rest, sent again in order from the receiver's clock, completes the zone.
        let rest = try f.owner.priv.changes(zone: f.zone, since: try f.participant.shared.clock(of: f.zone))
        for result in f.participant.shared.apply(rest, from: f.owner.peer) { _ = try result.get() }
        #expect(
            try f.participant.shared.canonicalDump(zone: f.zone) == f.owner.priv.canonicalDump(zone: f.zone))
    }

    /// Sets handed over while the group's transaction is open (as a receiver's connection
    /// gets them during the apply) join that transaction: one history entry, each set
    /// answering what it answers alone, and the source asked until it has none.
    @Test func setsTakenWhileTheGroupIsAppliedJoinItsTransaction() throws {
        let f = try Fixture()
        let twin = try Self.twin(of: f)
        let sets = try f.owner.priv.changes(zone: f.zone, since: VectorClock(), batchSize: 3)
        #expect(sets.count > 3)
        var handed = [[sets[0]], Array(sets[1..<3]), Array(sets[3...]), []]
        var asked = 0
        let token = try f.participant.shared.lastHistoryToken()
        let results = f.participant.shared.apply(from: f.owner.peer) {
            asked += 1
            return handed.removeFirst()
        }
        #expect(asked == 4, "asked until none was handed over")
        #expect(results.map(\.set) == sets)
        let alone = try sets.map { try twin.shared.apply($0, from: f.owner.peer) }
        #expect(try results.map { try $0.result.get() } == alone)
        #expect(try f.participant.shared.lastHistoryToken() == token + 1, "one transaction, not one per take")
        #expect(
            try f.participant.shared.canonicalDump(zone: f.zone) == f.owner.priv.canonicalDump(zone: f.zone))
    }

    /// A second receiver of the fixture's zone, to apply the same sets one by one; with
    /// `received`, it and the participant first get the whole zone as it is now.
    static func twin(of f: Fixture, received: Bool = false) throws -> TestLibrary {
        let twin = try TestLibrary()
        try twin.shared.prepareParticipantZone(f.zone, owner: f.owner.peer)
        guard received else { return twin }
        for set in try f.owner.priv.changes(zone: f.zone, since: VectorClock(), batchSize: 3) {
            for receiver in [f.participant, twin] { _ = try receiver.shared.apply(set, from: f.owner.peer) }
        }
        return twin
    }

    /// Applies `sets` as one group at the participant and one by one at `twin`, and expects
    /// the same answers, and the owner's zone at the participant. Returns the answers.
    @discardableResult
    static func expectGroupAnswersAsAlone(_ sets: [ChangeSet], _ f: Fixture, twin: TestLibrary) throws
        -> [ApplyReport]
    {
        let reports = try f.participant.shared.apply(sets, from: f.owner.peer).map { try $0.get() }
        let alone = try sets.map { try twin.shared.apply($0, from: f.owner.peer) }
        #expect(reports == alone)
        #expect(
            try f.participant.shared.canonicalDump(zone: f.zone) == f.owner.priv.canonicalDump(zone: f.zone))
        #expect(try f.participant.shared.clock(of: f.zone) == f.owner.priv.clock(of: f.zone))
        return reports
    }

    /// The IDs of the participant's photos in `zone`, in the order their rows were inserted.
    static func photosByInsertion(_ library: TestLibrary, zone: String) throws -> [String] {
        try library.shared.read { db in
            var ids: [String] = []
            try db.forEach("SELECT id FROM photos WHERE zone = ? ORDER BY rowid", zone) {
                ids.append($0.string(0))
            }
            return ids
        }
    }

    /// A group's new rows are held back and inserted in ID order when it ends; a later set
    /// of the same group that changes an object an earlier one brought has its row inserted
    /// first and merges with it, and every set answers what it answers alone.
    @Test func aGroupsNewRowsGoInInIDOrderAndItsLaterSetsFindThem() throws {
        let f = try Fixture()
        let twin = try Self.twin(of: f, received: true)
        let start = try f.owner.priv.clock(of: f.zone)
        var added: [String] = []
        for i in 6..<12 {
            let photo = try f.owner.addPhoto("p\(i).jpg", bytes: [UInt8(i)], tags: ["t\(i)", "common"])
            try f.owner.priv.addToShare(photo: photo, zone: f.zone)
            _ = try f.owner.priv.rate(photo: photo, value: i % 5 + 1)
            added.append(photo)
        }
        let more = try f.owner.priv.changes(zone: f.zone, since: start, batchSize: 3)
        let clock = try f.owner.priv.clock(of: f.zone)
        try f.owner.priv.renamePhoto(added[2], to: "renamed.jpg")
        let later = try f.owner.priv.changes(zone: f.zone, since: clock)
        #expect(later.flatMap(\.objects).contains { $0.id == added[2] })
        let sets = more + later
        #expect(sets.count > 3)
        let reports = try Self.expectGroupAnswersAsAlone(sets, f, twin: twin)
        #expect(reports.allSatisfy { $0.refused.isEmpty }, "\(reports.flatMap(\.refused))")
        // The renamed photo went in when the rename was merged, the others when the group ended.
        let inserted = try Self.photosByInsertion(f.participant, zone: f.zone).filter(added.contains)
        #expect(inserted == [added[2]] + added.filter { $0 != added[2] }.sorted(), "\(added)")
    }

    /// A membership change in a group makes the receiver look up again what it knew to be
    /// in the zone: a rating after it still finds the photo an earlier set of the group brought.
    @Test func aRatingAfterAMembershipChangeInTheGroupFindsItsPhoto() throws {
        let f = try Fixture()
        let twin = try Self.twin(of: f, received: true)
        let start = try f.owner.priv.clock(of: f.zone)
        let photo = try f.owner.addPhoto("late.jpg", bytes: [42], tags: [])
        try f.owner.priv.addToShare(photo: photo, zone: f.zone)
        try f.owner.priv.setParticipant(
            zone: f.zone, peer: f.participant.peer, permission: .readOnly, status: .accepted)
        _ = try f.owner.priv.rate(photo: photo, value: 4)
        let sets = try f.owner.priv.changes(zone: f.zone, since: start, batchSize: 1)
        #expect(sets.count >= 3)
        let reports = try Self.expectGroupAnswersAsAlone(sets, f, twin: twin)
        #expect(reports.allSatisfy { $0.refused.isEmpty }, "\(reports.flatMap(\.refused))")
    }

    /// A row taken to be new (its stamps past the clock) that the store holds already undoes
    /// the group, which is applied again, in one transaction, without holding rows back: each
    /// set answers what it answers alone.
    @Test func aRowTakenToBeNewThatExistsHasTheGroupAppliedAgainWithoutHolding() throws {
        let f = try Fixture()
        let sets = try f.owner.priv.changes(zone: f.zone, since: VectorClock(), batchSize: 3)
        #expect(sets.count > 3)
        // Both receivers hold the first set's objects without their clock covering them.
        let unclaimed = ChangeSet(
            zone: f.zone, since: VectorClock(), until: VectorClock(), objects: sets[0].objects)
        let twin = try Self.twin(of: f)
        for receiver in [f.participant, twin] {
            _ = try receiver.shared.apply(unclaimed, from: f.owner.peer)
            #expect(try receiver.shared.clock(of: f.zone) == VectorClock())
        }
        let token = try f.participant.shared.lastHistoryToken()
        let reports = try Self.expectGroupAnswersAsAlone(sets, f, twin: twin)
        #expect(reports[0].applied == 0 && reports[0].stale > 0, "\(reports[0])")
        #expect(try f.participant.shared.lastHistoryToken() == token + 1, "one transaction, not one per set")
    }

    @Test func changesOfAnUnknownZoneAreRefused() throws {
        let f = try Fixture()
        #expect(throws: StoreError.unknownZone("nope")) {
            try f.owner.priv.changes(zone: "nope", since: VectorClock())
        }
        let set = ChangeSet(zone: "nope", since: VectorClock(), until: VectorClock(), objects: [])
        let error = try #require(throws: SyncError.self) {
            try f.participant.shared.apply(set, from: f.owner.peer)
        }
        #expect(error.description == "change set for zone nope, which this store does not hold")
    }
}
