import Store
import Testing

@testable import Replication

@Suite struct SessionChangesTests {
    let owner = SessionProbe.owner
    let participant = SessionProbe.participant
    let zone = SessionProbe.zone

    /// What a session asks of the store with the default configuration.
    static func prepare(_ zone: String, since: VectorClock, batchSize: Int, generation: Int) -> SessionAction
    {
        let defaults = SessionConfiguration()
        return .prepareChanges(
            zone: zone, since: since, batchSize: batchSize,
            limit: ChangePageLimit(
                fields: batchSize * defaults.changePageBatches, bytes: defaults.changePageBytes),
            generation: generation)
    }

    @Test func thePeersZoneClocksStartAnAntiEntropyFromTheirClock() {
        var probe = SessionProbe()
        #expect(probe.session.busy == .opening)
        let theirs = VectorClock([participant: 3])
        probe.receive(
            ZoneClocks([.init(zone: zone, clock: theirs), .init(zone: "not-shared", clock: theirs)]))
        #expect(
            probe.requests == [Self.prepare(zone, since: theirs, batchSize: 2_000, generation: 1)])
        #expect(probe.last.contains(.notify(.synchronising(zones: 2))))
    }

    @Test func preparedSetsGoOutUnderTheWindowAndAnswersReleaseMore() {
        var configuration = SessionConfiguration()
        configuration.changeWindowBytes = 1
        var probe = SessionProbe(configuration: configuration)
        probe.receive(ZoneClocks([.init(zone: zone, clock: VectorClock())]))
        let sets = (1...3).map { k in
            SessionProbe.set(
                since: VectorClock([owner: UInt64(k - 1)]), until: VectorClock([owner: UInt64(k)]))
        }
        probe.handle(
            .changesPrepared(zone: zone, generation: 1, .success(ChangePage(sets: sets, complete: true))))
        #expect(probe.sent == [.changeSet(ChangeSetMessage(sets[0]))], "one set at a time with a tiny window")
        // What `sync --wait` says of a peer this session still sends to.
        #expect(probe.session.busy == .sendingChanges)
        #expect(probe.session.busy.description == "changes to send")
        probe.receive(ChangeSetAck(zone: zone, clock: VectorClock([owner: 1])))
        #expect(probe.sent == [.changeSet(ChangeSetMessage(sets[1]))])
        probe.receive(ChangeSetAck(zone: zone, clock: VectorClock([owner: 2])))
        probe.receive(ChangeSetAck(zone: zone, clock: VectorClock([owner: 3])))
        #expect(probe.sent.isEmpty)
        #expect(probe.session.remoteClocks[zone] == VectorClock([owner: 3]))
        #expect(probe.session.isIdle)
        #expect(probe.session.busy.description == "idle")
    }

    /// A page that is not the end of the delta: the next one is asked for from where it
    /// ended once its sets have left the outbox, and not before.
    @Test func theNextPageIsAskedForOnceThisOneHasGone() {
        var configuration = SessionConfiguration()
        configuration.changeWindowBytes = 1
        var probe = SessionProbe(configuration: configuration)
        probe.receive(ZoneClocks([.init(zone: zone, clock: VectorClock())]))
        let sets = (1...2).map { k in
            SessionProbe.set(
                since: VectorClock([owner: UInt64(k - 1)]), until: VectorClock([owner: UInt64(k)]))
        }
        probe.handle(
            .changesPrepared(zone: zone, generation: 1, .success(ChangePage(sets: sets, complete: false))))
        #expect(probe.sent == [.changeSet(ChangeSetMessage(sets[0]))])
        #expect(probe.requests.isEmpty, "the page's second set still waits for the window")
        probe.receive(ChangeSetAck(zone: zone, clock: VectorClock([owner: 1])))
        #expect(probe.sent == [.changeSet(ChangeSetMessage(sets[1]))])
        #expect(
            probe.requests == [
                Self.prepare(zone, since: VectorClock([owner: 2]), batchSize: 2_000, generation: 1)
            ])
        probe.receive(ChangeSetAck(zone: zone, clock: VectorClock([owner: 2])))
        let last = SessionProbe.set(since: VectorClock([owner: 2]), until: VectorClock([owner: 3]))
        probe.handle(
            .changesPrepared(zone: zone, generation: 1, .success(ChangePage(sets: [last], complete: true))))
        #expect(probe.sent == [.changeSet(ChangeSetMessage(last))])
        #expect(probe.requests.isEmpty, "the delta is complete")
        probe.receive(ChangeSetAck(zone: zone, clock: VectorClock([owner: 3])))
        #expect(probe.session.isIdle)
    }

    @Test func anAnswerNobodyAskedForIsAProtocolError() {
        var probe = SessionProbe()
        probe.receive(ChangeSetAck(zone: zone, clock: VectorClock()))
        #expect(
            probe.closeReason == .protocolViolation("an answer for zone zone-1 matches no change set sent"))
    }

    @Test func notReadyResendsFromTheReceiversClockAndDropsWhatWasQueued() {
        var configuration = SessionConfiguration()
        configuration.changeWindowBytes = 1
        var probe = SessionProbe(configuration: configuration)
        probe.receive(ZoneClocks([.init(zone: zone, clock: VectorClock([owner: 2]))]))
        let sets = [
            SessionProbe.set(since: VectorClock([owner: 2]), until: VectorClock([owner: 3])),
            SessionProbe.set(since: VectorClock([owner: 3]), until: VectorClock([owner: 4])),
        ]
        probe.handle(
            .changesPrepared(zone: zone, generation: 1, .success(ChangePage(sets: sets, complete: true))))
        let actual = VectorClock([owner: 1])
        probe.receive(ChangeSetNotReady(zone: zone, clock: actual))
        #expect(probe.sent.isEmpty, "the second set, computed from a wrong belief, is dropped")
        #expect(
            probe.requests == [Self.prepare(zone, since: actual, batchSize: 2_000, generation: 2)])
    }

    @Test func localCommitsDuringAComputationAreFollowedUpOnce() {
        var probe = SessionProbe()
        probe.receive(ZoneClocks([.init(zone: zone, clock: VectorClock())]))
        #expect(probe.requests.count == 1)
        probe.handle(.localCommit(zone: zone))
        probe.handle(.localCommit(zone: zone))
        #expect(probe.requests.isEmpty, "a computation is already under way")
        let set = SessionProbe.set(until: VectorClock([owner: 6]))
        probe.handle(
            .changesPrepared(zone: zone, generation: 1, .success(ChangePage(sets: [set], complete: true))))
        #expect(probe.sent == [.changeSet(ChangeSetMessage(set))])
        #expect(
            probe.requests == [
                Self.prepare(zone, since: VectorClock([owner: 6]), batchSize: 2_000, generation: 1)
            ])
        probe.handle(.localCommit(zone: "another-zone"))
        #expect(probe.last.isEmpty)
    }

    @Test func nothingNewMeansNothingSent() {
        var probe = SessionProbe()
        // The probe announced {owner: 5}, and the peer holds as much.
        let theirs = VectorClock([owner: 5])
        probe.receive(ZoneClocks([.init(zone: zone, clock: theirs)]))
        let empty = ChangeSet(zone: zone, since: theirs, until: theirs, objects: [])
        probe.handle(
            .changesPrepared(zone: zone, generation: 1, .success(ChangePage(sets: [empty], complete: true))))
        #expect(probe.sent.isEmpty)
        #expect(probe.session.isIdle)
    }

    /// The peer already holds everything (it took a change from its author directly, say),
    /// but was told a smaller clock of this side: one empty set tells it, or it would take
    /// this side for behind; once told, nothing more goes.
    @Test func anEmptySetGoesOnceWhenItTellsThePeerMoreOfThisSidesClock() {
        var probe = SessionProbe()
        let theirs = VectorClock([owner: 6])
        probe.receive(ZoneClocks([.init(zone: zone, clock: theirs)]))
        let empty = ChangeSet(zone: zone, since: theirs, until: theirs, objects: [])
        probe.handle(
            .changesPrepared(zone: zone, generation: 1, .success(ChangePage(sets: [empty], complete: true))))
        #expect(probe.sent == [.changeSet(ChangeSetMessage(empty))])
        probe.receive(ChangeSetAck(zone: zone, clock: theirs))
        probe.handle(.localCommit(zone: zone))
        probe.handle(
            .changesPrepared(zone: zone, generation: 1, .success(ChangePage(sets: [empty], complete: true))))
        #expect(probe.sent.isEmpty)
        #expect(probe.session.isIdle)
    }

    /// The owner merges only a participant's own clock entry, so the participant must not
    /// believe its whole `until` arrived.
    @Test func aParticipantBelievesTheOwnerHoldsOnlyItsOwnEntry() {
        let zones = [SessionZone(zone: zone, store: .shared, localIsOwner: false, clock: VectorClock())]
        var probe = SessionProbe(local: participant, remote: owner, zones: zones)
        probe.receive(ZoneClocks([.init(zone: zone, clock: VectorClock())]))
        let set = SessionProbe.set(until: VectorClock([owner: 9, participant: 4]))
        probe.handle(
            .changesPrepared(zone: zone, generation: 1, .success(ChangePage(sets: [set], complete: true))))
        #expect(probe.session.remoteClocks[zone] == VectorClock([participant: 4]))
    }

    @Test func receivedSetsAreAppliedAndAnsweredInOrder() {
        var probe = SessionProbe()
        probe.receive(ZoneClocks([.init(zone: zone, clock: VectorClock())]))
        let first = SessionProbe.set(until: VectorClock([participant: 2]))
        probe.receive(ChangeSetMessage(first))
        #expect(probe.requests == [.apply(first)])
        probe.receive(ChangeSetMessage(SessionProbe.set("stranger-zone", until: VectorClock())))
        #expect(probe.sent.isEmpty, "the ignored set is answered after the one being applied")
        let mine = VectorClock([owner: 5, participant: 2])
        probe.handle(
            .applied(
                zone: zone,
                .applied(refused: [Refusal(entity: .photo, id: "x", reason: "no")], versions: [], clock: mine)
            ))
        #expect(
            probe.sent == [
                .ack(ChangeSetAck(zone: zone, clock: mine)),
                .ack(ChangeSetAck(zone: "stranger-zone", clock: VectorClock())),
            ])
        #expect(probe.logs.contains { $0.contains("photo x: no") })
        #expect(
            probe.session.remoteClocks[zone] == VectorClock([participant: 2]), "the peer holds what it sent")
    }

    /// The author is told what was refused for good, not what waits for a photo or tag not
    /// received yet (a photo the owner's other device shared): that is no verdict to undo,
    /// and the ack's clock, which does not claim it, has it sent again.
    @Test func onlyRefusalsForGoodAreToldToTheAuthor() {
        var probe = SessionProbe(established: false)
        probe.handle(.frame(Hello(peerID: participant, capabilities: [.refusalNotices]).frame()))
        probe.receive(ZoneClocks([.init(zone: zone, clock: VectorClock())]))
        let set = SessionProbe.set(until: VectorClock([participant: 2]))
        probe.receive(ChangeSetMessage(set))
        let forGood = Refusal(entity: .rating, id: "r1", reason: "invalid value for rating.value")
        let waiting = Refusal(
            entity: .rating, id: "r2", reason: "refers to photo p, missing in this zone",
            waitsForReference: true)
        let mine = VectorClock([owner: 5, participant: 1])
        probe.handle(.applied(zone: zone, .applied(refused: [forGood, waiting], versions: [], clock: mine)))
        #expect(
            probe.sent == [
                .changesRefused(ChangesRefused(zone: zone, refusals: [forGood], versions: [])),
                .ack(ChangeSetAck(zone: zone, clock: mine)),
            ])
        #expect(
            probe.logs.contains { $0.contains("did not take yet from the peer") && $0.contains("rating r2") })

        // Only waiting: nothing but the ack.
        probe.receive(ChangeSetMessage(SessionProbe.set(until: VectorClock([participant: 3]))))
        probe.handle(.applied(zone: zone, .applied(refused: [waiting], versions: [], clock: mine)))
        #expect(probe.sent == [.ack(ChangeSetAck(zone: zone, clock: mine))])
    }

    /// A refusal for want of permission goes in a notice of its own, with the records of its
    /// author it was judged by (the versions of no refused object); others go without them.
    @Test func aRefusalForWantOfPermissionIsToldWithTheRecordsItWasJudgedBy() {
        var probe = SessionProbe(established: false)
        probe.handle(.frame(Hello(peerID: participant, capabilities: [.refusalNotices]).frame()))
        probe.receive(ZoneClocks([.init(zone: zone, clock: VectorClock())]))
        probe.receive(ChangeSetMessage(SessionProbe.set(until: VectorClock([participant: 2]))))
        let invalid = Refusal(entity: .rating, id: "r1", reason: "invalid value for rating.value")
        let denied = Refusal(
            entity: .tag, id: "t1", reason: "may not write to this share", forWantOfPermission: true)
        let stamp = Stamp(hlc: 3, peer: owner)
        let tag = ObjectChange(
            entity: .tag, id: "t1", fields: [FieldChange(field: 1, value: .text("x"), stamp: stamp)])
        let record = ObjectChange(
            entity: .participant, id: "\(zone)/\(participant)",
            fields: [FieldChange(field: 2, value: .text("read-only"), stamp: stamp)])
        let mine = VectorClock([owner: 5, participant: 1])
        probe.handle(
            .applied(zone: zone, .applied(refused: [invalid, denied], versions: [tag, record], clock: mine)))
        #expect(
            probe.sent == [
                .changesRefused(ChangesRefused(zone: zone, refusals: [invalid], versions: [])),
                // The flag is this side's own: not on the wire.
                .changesRefused(
                    ChangesRefused(
                        zone: zone, refusals: [Refusal(entity: .tag, id: "t1", reason: denied.reason)],
                        versions: [tag, record])),
                .ack(ChangeSetAck(zone: zone, clock: mine)),
            ])
    }

    @Test func aSetTheStoreCannotTakeYetIsAnsweredNotReady() {
        var probe = SessionProbe()
        let set = SessionProbe.set(
            since: VectorClock([participant: 9]), until: VectorClock([participant: 10]))
        probe.receive(ChangeSetMessage(set))
        let mine = VectorClock([participant: 3])
        probe.handle(.applied(zone: zone, .notReady(clock: mine)))
        #expect(probe.sent == [.notReady(ChangeSetNotReady(zone: zone, clock: mine))])
    }

    @Test func aSetTooLargeForAFrameIsAskedForInSmallerBatches() {
        var configuration = SessionConfiguration()
        configuration.maximumFrameSize = 400
        var probe = SessionProbe(configuration: configuration)
        probe.receive(ZoneClocks([.init(zone: zone, clock: VectorClock())]))
        let big = SessionProbe.set(until: VectorClock([owner: 6]), objects: 20)
        probe.handle(
            .changesPrepared(zone: zone, generation: 1, .success(ChangePage(sets: [big], complete: true))))
        #expect(
            probe.requests == [
                Self.prepare(zone, since: VectorClock(), batchSize: 500, generation: 1)
            ])
        var asked: [Int] = []
        while case .prepareChanges(_, _, let batchSize, _, _) = probe.requests.first, asked.count < 10 {
            asked.append(batchSize)
            probe.handle(
                .changesPrepared(zone: zone, generation: 1, .success(ChangePage(sets: [big], complete: true)))
            )
        }
        #expect(asked == [500, 125, 31, 7, 1])
        #expect(probe.last.contains { if case .log(.error, _) = $0 { true } else { false } })
    }

    @Test func newZonesAreAnnouncedAndRemovedOnesForgotten() {
        var probe = SessionProbe()
        let added = SessionZone(
            zone: "zone-2", store: .private, localIsOwner: true, clock: VectorClock([owner: 1]))
        probe.handle(.zonesChanged([added]))
        #expect(
            probe.sent == [.zoneClocks(ZoneClocks([.init(zone: "zone-2", clock: VectorClock([owner: 1]))]))])
        #expect(probe.session.remoteClocks.keys.sorted() == ["zone-2"])
    }

    @Test func aStorageFailureClosesTheConnection() {
        var probe = SessionProbe()
        probe.receive(ChangeSetMessage(SessionProbe.set(until: VectorClock([participant: 1]))))
        probe.handle(.applied(zone: zone, .failed("disk full")))
        #expect(probe.closeReason == .internalFailure("applying a change set of zone zone-1: disk full"))
    }

    @Test func aZoneThePeerAnnouncedBeforeItWasSharedHereSyncsOnceItIs() {
        var probe = SessionProbe(zones: [])
        let theirs = VectorClock([participant: 2])
        probe.receive(ZoneClocks([.init(zone: "late", clock: theirs)]))
        #expect(probe.requests.isEmpty)
        let late = SessionZone(
            zone: "late", store: .private, localIsOwner: true, clock: VectorClock([owner: 1]))
        probe.handle(.zonesChanged([late]))
        #expect(
            probe.sent == [.zoneClocks(ZoneClocks([.init(zone: "late", clock: VectorClock([owner: 1]))]))])
        #expect(
            probe.requests == [Self.prepare("late", since: theirs, batchSize: 2_000, generation: 0)])
    }

    @Test func aConnectionWithNoZonesStillAnnouncesSoThePeerKnowsItIsSettled() {
        var probe = SessionProbe(zones: [])
        #expect(probe.sent == [.zoneClocks(ZoneClocks([]))])
        probe.receive(ZoneClocks([]))
        #expect(probe.session.isIdle)
    }
}
