import Store
import Testing

@testable import Replication

/// The neighbours message in the session: sent only to a peer whose hello agreed on it, and
/// handed to the engine when received; without the agreement, receiving one ends the
/// connection as any message outside the agreed version.
@Suite struct SessionNeighboursTests {
    let devices = [
        PeerID(digest: [UInt8](repeating: 4, count: 32))!, PeerID(digest: [UInt8](repeating: 3, count: 32))!,
    ]

    func probe(capabilities: Capabilities) -> SessionProbe {
        var probe = SessionProbe(
            local: SessionProbe.participant, remote: SessionProbe.owner,
            zones: [
                SessionZone(
                    zone: SessionProbe.zone, store: .shared, localIsOwner: false, clock: VectorClock())
            ],
            established: false)
        probe.handle(.frame(Hello(peerID: SessionProbe.owner, capabilities: capabilities).frame()))
        return probe
    }

    func sentNeighbours(_ probe: SessionProbe) -> [NeighboursMessage] {
        probe.sent.compactMap {
            guard case .neighbours(let message) = $0 else { return nil }
            return message
        }
    }

    @Test func neighboursGoOnlyToAPeerThatAgreedAndComeBackAsANotice() {
        #expect(SyncSession.capabilities.contains(.neighbours))
        var agreed = probe(capabilities: [.neighbours])
        agreed.handle(.sendNeighbours(devices))
        #expect(sentNeighbours(agreed) == [NeighboursMessage(devices)])
        agreed.receive(NeighboursMessage(devices))
        #expect(agreed.last.contains(.notify(.neighboursAnnounced(Set(devices)))))
        #expect(agreed.closeReason == nil)

        var older = probe(capabilities: [])
        older.handle(.sendNeighbours(devices))
        #expect(sentNeighbours(older).isEmpty, "a peer without the capability is not told")
        older.receive(NeighboursMessage(devices))
        #expect(older.closeReason != nil, "a message the hellos did not agree on ends the connection")
    }
}
