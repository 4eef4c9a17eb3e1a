import Store
import Testing

@testable import Replication

/// Signed sets under flow control: with a peer whose hello agreed on `setAcks`, a session
/// answers every signed-sets message it took and keeps at most `setsWindow` of its own
/// unanswered (a joiner otherwise held up to its inbox limit of a relay's sets); with an older
/// peer, nothing is answered and nothing waits.
@Suite struct SessionSetAcksTests {
    let zone = SessionProbe.zone
    let owner = SessionProbe.owner

    /// An owner session whose peer announced the zone (its delta, empty, is done) and then
    /// said which sets it holds (none): it asks the store for the sets the peer lacks.
    func sender(capabilities: Capabilities) -> SessionProbe {
        var probe = SessionProbe(established: false)
        probe.handle(.frame(Hello(peerID: SessionProbe.participant, capabilities: capabilities).frame()))
        probe.receive(ZoneClocks([.init(zone: zone, clock: VectorClock([owner: 5]))]))
        probe.handle(
            .changesPrepared(zone: zone, generation: 1, .success(ChangePage(sets: [], complete: true))))
        probe.receive(SetVectorMessage(zone: zone, vector: SeqVector()))
        return probe
    }

    func row(_ seq: UInt64) -> SignedSetRow {
        SignedSetRow(
            author: owner, seq: seq, hash: [UInt8](repeating: UInt8(seq), count: 32), hlc: seq,
            bytes: [1, 2, 3])
    }

    func prepared(_ seq: UInt64, more: Bool) -> SessionEvent {
        .setsPrepared(zone: zone, .success(PreparedSets(sets: [row(seq)], certificates: [], more: more)))
    }

    func asksForSets(_ probe: SessionProbe) -> Bool {
        probe.requests.contains {
            if case .prepareSets(let asked, _, _) = $0 { return asked == zone }
            return false
        }
    }

    func sentSets(_ probe: SessionProbe) -> Int {
        probe.sent.count {
            if case .signedSets = $0 { return true }
            return false
        }
    }

    @Test func aPeerThatAnswersGetsTwoMessagesAheadAndEachAnswerReleasesOneMore() {
        var probe = sender(capabilities: SyncSession.capabilities)
        #expect(asksForSets(probe))
        probe.handle(prepared(1, more: true))
        #expect(sentSets(probe) == 1)
        #expect(asksForSets(probe), "one message unanswered: the window (2) has room")
        probe.handle(prepared(2, more: true))
        #expect(sentSets(probe) == 1)
        #expect(!asksForSets(probe), "two unanswered: nothing more is read until an answer")
        probe.receive(SetsTakenMessage(zone: zone))
        #expect(asksForSets(probe))
        probe.handle(prepared(3, more: false))
        #expect(sentSets(probe) == 1)
        #expect(!asksForSets(probe), "the last sets were sent")
        probe.receive(SetsTakenMessage(zone: zone))
        #expect(!probe.session.isIdle, "one message still unanswered")
        probe.receive(SetsTakenMessage(zone: zone))
        #expect(probe.session.isIdle)
        // An answer beyond the messages sent (of a zone dropped and added back) changes nothing.
        probe.receive(SetsTakenMessage(zone: zone))
        #expect(probe.closeReason == nil)
        #expect(probe.session.isIdle)
    }

    @Test func anOlderPeerGetsMessagesAsFastAsTheyAreReadAndAnAnswerFromItEndsTheConnection() {
        var capabilities = SyncSession.capabilities
        capabilities.remove(.setAcks)
        var probe = sender(capabilities: capabilities)
        for seq in 1...4 {
            probe.handle(prepared(UInt64(seq), more: true))
            #expect(sentSets(probe) == 1)
            #expect(asksForSets(probe), "message \(seq): no window without answers")
        }
        probe.receive(SetsTakenMessage(zone: zone))
        #expect(probe.closeReason != nil, "a message the hellos did not agree on ends the connection")
    }

    @Test func everyMessageTakenIsAnsweredOnceItsSetsAreKeptAndOneOfAnUnknownZoneAtOnce() {
        var probe = sender(capabilities: SyncSession.capabilities)
        let message = SignedSetsMessage(zone: zone, certificates: [], sets: [[1, 2, 3]])
        probe.receive(message)
        #expect(probe.requests.contains(.applySets(message)))
        #expect(
            !probe.sent.contains(.setsTaken(SetsTakenMessage(zone: zone))), "not before the sets are kept")
        probe.handle(
            .setsApplied(zone: zone, SetsApplied(received: [owner: 1], held: SeqVector(), gap: false)))
        #expect(probe.sent.contains(.setsTaken(SetsTakenMessage(zone: zone))))
        probe.receive(SignedSetsMessage(zone: "not-replicated", certificates: [], sets: [[1]]))
        #expect(probe.sent == [.setsTaken(SetsTakenMessage(zone: "not-replicated"))])
        #expect(probe.requests.isEmpty)

        var capabilities = SyncSession.capabilities
        capabilities.remove(.setAcks)
        var older = sender(capabilities: capabilities)
        older.receive(message)
        older.handle(
            .setsApplied(zone: zone, SetsApplied(received: [owner: 1], held: SeqVector(), gap: false)))
        #expect(older.sent.isEmpty, "an older peer is not answered")
    }
}
