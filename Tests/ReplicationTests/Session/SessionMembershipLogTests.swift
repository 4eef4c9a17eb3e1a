import Store
import Testing

@testable import Replication

/// The session's part in the membership log: the owner's operations go out only on a
/// connection replicating the zone with a peer that has the capability, and only the
/// owner's reach the engine.
@Suite struct SessionMembershipLogTests {
    let zone = SessionProbe.zone
    let operations: [[UInt8]] = [[1, 2, 3], [4, 5]]

    /// A session whose peer's hello announced `capabilities`.
    func probe(
        localIsOwner: Bool = true, capabilities: Capabilities = [.membership],
        configuration: SessionConfiguration = SessionConfiguration()
    ) -> SessionProbe {
        let (local, remote) =
            localIsOwner
            ? (SessionProbe.owner, SessionProbe.participant) : (SessionProbe.participant, SessionProbe.owner)
        var probe = SessionProbe(
            local: local, remote: remote,
            zones: [
                SessionZone(
                    zone: zone, store: localIsOwner ? .private : .shared, localIsOwner: localIsOwner,
                    clock: VectorClock())
            ],
            configuration: configuration, established: false)
        probe.handle(.frame(Hello(peerID: remote, capabilities: capabilities).frame()))
        return probe
    }

    func membershipMessages(_ probe: SessionProbe) -> [MembershipOperationsMessage] {
        probe.sent.compactMap {
            guard case .membershipOperations(let message) = $0 else { return nil }
            return message
        }
    }

    @Test func theHelloAnnouncesTheMembershipCapability() {
        #expect(SyncSession.capabilities.contains(.membership))
    }

    @Test func theSignerListsGoOnlyToAPeerWithBit4AndReachTheEngine() throws {
        let lists: [[[UInt8]]] = [[[1, 2], [3]], [[4]]]
        var owner = probe(capabilities: [.membership, .signerLists])
        owner.handle(.sendMembership(zone: zone, operations: operations, signerLists: lists))
        let sent = membershipMessages(owner)
        #expect(sent == [MembershipOperationsMessage(zone: zone, operations: operations, signerLists: lists)])
        // Through a frame and back: the lists are a trailing field, absent when empty.
        let frame = sent[0].frame()
        #expect(try MembershipOperationsMessage(frame: frame).signerLists == lists)
        let plain = MembershipOperationsMessage(zone: zone, operations: operations).frame()
        #expect(Array(frame.payload.prefix(plain.payload.count)) == plain.payload)
        #expect(try MembershipOperationsMessage(frame: plain).signerLists.isEmpty)
        // A peer without bit 4 (part 1 of the log) gets the operations alone.
        var older = probe(capabilities: [.membership])
        older.handle(.sendMembership(zone: zone, operations: operations, signerLists: lists))
        #expect(
            membershipMessages(older) == [MembershipOperationsMessage(zone: zone, operations: operations)])
        // The participant hands the lists to the engine with the operations.
        var participant = probe(localIsOwner: false, capabilities: [.membership, .signerLists])
        participant.receive(
            MembershipOperationsMessage(zone: zone, operations: operations, signerLists: lists))
        #expect(
            participant.last.contains(
                .notify(.membershipReceived(zone: zone, operations: operations, signerLists: lists))))
    }

    @Test func theOwnerSendsAZonesOperationsOnlyToAPeerWithTheCapability() {
        var owner = probe()
        owner.handle(.sendMembership(zone: zone, operations: operations))
        #expect(
            membershipMessages(owner) == [MembershipOperationsMessage(zone: zone, operations: operations)])

        owner.handle(.sendMembership(zone: "another-zone", operations: operations))
        #expect(membershipMessages(owner).isEmpty, "a zone not replicated with the peer")

        var older = probe(capabilities: [])
        older.handle(.sendMembership(zone: zone, operations: operations))
        #expect(membershipMessages(older).isEmpty, "a peer without the capability")

        // Members relay the log to each other and to the owner (joining through a member).
        var participant = probe(localIsOwner: false)
        participant.handle(.sendMembership(zone: zone, operations: operations))
        #expect(
            membershipMessages(participant) == [
                MembershipOperationsMessage(zone: zone, operations: operations)
            ],
            "a participant relays the log it holds")
    }

    @Test func theOwnerIsAskedForItsLogEachTimeThePeerAnnouncesTheZone() {
        let clocks = ZoneClocks([.init(zone: zone, clock: VectorClock())])
        var owner = probe()
        owner.receive(clocks)
        #expect(owner.last.contains(.notify(.membershipWanted(zone: zone))))
        owner.receive(clocks)
        #expect(owner.last.contains(.notify(.membershipWanted(zone: zone))), "a resync too")

        var older = probe(capabilities: [])
        older.receive(clocks)
        #expect(!older.last.contains(.notify(.membershipWanted(zone: zone))))
        var participant = probe(localIsOwner: false)
        participant.receive(clocks)
        #expect(
            participant.last.contains(.notify(.membershipWanted(zone: zone))),
            "a participant sends the log it holds too")

        // Announced before this side replicated the zone: asked for when it starts.
        var late = SessionProbe(zones: [], established: false)
        late.handle(.frame(Hello(peerID: SessionProbe.participant, capabilities: [.membership]).frame()))
        late.receive(clocks)
        #expect(!late.last.contains(.notify(.membershipWanted(zone: zone))))
        late.handle(
            .zonesChanged([SessionZone(zone: zone, store: .private, localIsOwner: true, clock: VectorClock())]
            ))
        #expect(late.last.contains(.notify(.membershipWanted(zone: zone))))
    }

    @Test func aLongLogGoesInSeveralMessagesWithinTheLimits() {
        var configuration = SessionConfiguration()
        configuration.limits.maxMembershipOperations = 2
        var owner = probe(configuration: configuration)
        let five: [[UInt8]] = (1...5).map { [UInt8($0)] }
        owner.handle(.sendMembership(zone: zone, operations: five))
        #expect(membershipMessages(owner).map(\.operations) == [[[1], [2]], [[3], [4]], [[5]]])
    }

    /// Operations of a zone replicated with the peer reach the engine, which checks them (an
    /// owner takes only the accepts a member relays, as joins it ratifies).
    @Test func operationsOfAReplicatedZoneReachTheEngine() {
        let message = MembershipOperationsMessage(zone: zone, operations: operations)
        var participant = probe(localIsOwner: false)
        participant.receive(message)
        #expect(participant.last.contains(.notify(.membershipReceived(zone: zone, operations: operations))))

        var owner = probe()
        owner.receive(message)
        #expect(owner.last.contains(.notify(.membershipReceived(zone: zone, operations: operations))))
        #expect(owner.closeReason == nil)

        var stranger = probe(localIsOwner: false)
        stranger.receive(MembershipOperationsMessage(zone: "another-zone", operations: operations))
        #expect(!stranger.last.contains { if case .notify = $0 { true } else { false } })
    }
}
