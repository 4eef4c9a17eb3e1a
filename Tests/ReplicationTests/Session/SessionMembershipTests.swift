import Store
import Support
import Testing

@testable import Replication

/// The session's part in who replicates with whom: telling the peer where this side
/// listens, revoking a zone whose membership ended, and handing on what the peer says.
@Suite struct SessionMembershipTests {
    let zone = SessionProbe.zone
    let address = PeerAddress(host: "192.0.2.7", port: 7733)

    func frames(_ actions: [SessionAction]) -> [Frame] {
        actions.flatMap { action -> [Frame] in
            guard case .send(let frames) = action else { return [] }
            return frames
        }
    }

    func session(advertised: [PeerAddress]) -> (SyncSession, [SessionAction]) {
        var session = SyncSession(
            localPeer: SessionProbe.owner, remotePeer: SessionProbe.participant, zones: [],
            advertised: advertised, now: .now)
        _ = session.start(now: .now)
        return (session, [])
    }

    @Test func theAddressesGoRightAfterTheHelloOnlyWhenBothSidesHaveTheCapability() throws {
        var (session, _) = session(advertised: [address])
        let hello = Hello(peerID: SessionProbe.participant, capabilities: [.addresses])
        let actions = session.handle(.frame(hello.frame()), now: .now)
        #expect(frames(actions).first == Addresses([address]).frame())

        var (older, _) = self.session(advertised: [address])
        let plain = older.handle(.frame(Hello(peerID: SessionProbe.participant).frame()), now: .now)
        #expect(!frames(plain).contains { $0.type == .addresses }, "a peer without the capability gets none")
    }

    @Test func theHelloAnnouncesTheAddressesCapability() throws {
        var session = SyncSession(
            localPeer: SessionProbe.owner, remotePeer: SessionProbe.participant, zones: [], now: .now)
        let hello = try Hello(frame: try #require(frames(session.start(now: .now)).first))
        #expect(hello.capabilities.contains(.addresses))
    }

    @Test func addressesFromThePeerAreHandedOn() {
        var probe = SessionProbe()
        probe.receive(Addresses([address]))
        #expect(probe.last.contains(.notify(.addressesAnnounced([address]))))
    }

    @Test func aRevokedZoneStopsReplicatingAndThePeerIsToldWhy() throws {
        var probe = SessionProbe()
        probe.receive(ZoneClocks([.init(zone: zone, clock: VectorClock())]))
        probe.handle(.revoke(zone: zone, reason: "the owner removed you from this share"))
        let notice = try ZoneNotice(frame: try #require(frames(probe.last).first))
        #expect(
            notice
                == ZoneNotice(type: .zoneRevoked, zone: zone, reason: "the owner removed you from this share")
        )
        #expect(probe.session.remoteClocks[zone] == nil, "no longer replicated")
        probe.handle(.localCommit(zone: zone))
        #expect(probe.requests.isEmpty, "a commit in the zone sends nothing")
        // The peer announces the zone again: the engine decides from the store as it is now
        // (the peer may have been invited and joined again meanwhile), not the session from
        // what it was told before.
        probe.receive(ZoneClocks([.init(zone: zone, clock: VectorClock())]))
        #expect(frames(probe.last).isEmpty)
        #expect(probe.last.contains(.notify(.unreplicatedZoneAnnounced(zone))))
    }

    @Test func aZoneThePeerAnnouncesButThisSideDoesNotReplicateIsReportedForAMembershipCheck() {
        var probe = SessionProbe()
        probe.receive(ZoneClocks([.init(zone: "other", clock: VectorClock())]))
        #expect(probe.last.contains(.notify(.unreplicatedZoneAnnounced("other"))))
    }
}
