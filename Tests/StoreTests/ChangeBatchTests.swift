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
    /// are kept, and the ones after it are answered as not ready.
    @Test func aGroupWithAGapKeepsTheSetsBeforeItAndAnswersTheRestNotReady() throws {
        let f = try Fixture()
        let sets = try f.owner.priv.changes(zone: f.zone, since: VectorClock(), batchSize: 3)
        #expect(sets.count > 3)
        let group = [sets[0], sets[2], sets[3]]
        let results = f.participant.shared.apply(group, from: f.owner.peer)
        #expect(results.count == 3)
        #expect(try results[0].get().refused.isEmpty)
        for result in results.dropFirst() {
            #expect(throws: SyncError.self) { try result.get() }
        }
        #expect(try f.participant.shared.clock(of: f.zone) == sets[0].until)
        // The rest, sent again in order from the receiver's clock, completes the zone.
        let rest = try f.owner.priv.changes(zone: f.zone, since: try f.participant.shared.clock(of: f.zone))
        for result in f.participant.shared.apply(rest, from: f.owner.peer) { _ = try result.get() }
        #expect(
            try f.participant.shared.canonicalDump(zone: f.zone) == f.owner.priv.canonicalDump(zone: f.zone))
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
