import Store
import Support
import TestSupport
import Testing

@testable import Replication

@Suite struct EngineAdmissionTests {
    @Test func aPeerThatIsNotAMemberIsDroppedAfterTheHandshake() async throws {
        let owner = try EnginePeer("owner")
        let participant = try EnginePeer("participant")
        let (_, photo) = try shareZone(owner: owner, with: [participant])
        let stranger = try RawPeer()
        // TLS lets anyone in (a share URL's holder may come to join); after the hellos, a
        // stranger that did not come as a guest gets a goodbye and nothing else.
        let frames = try await stranger.converse(with: owner) { RawPeer.drainNow($0) }
        let reason = "not a member of any zone shared here"
        #expect(
            try frames.map { try ErrorMessage(frame: $0) } == [
                ErrorMessage(code: .notMember, message: reason)
            ])
        #expect(await eventually { owner.events.all.contains(.refused(stranger.peer, reason: reason)) })
        #expect(owner.logged("refused a connection from \(stranger.peer)"))
        #expect(!owner.engine.peers().contains { $0.peer == stranger.peer })
        // The members are not disturbed.
        _ = try owner.priv.tag(photo: photo, name: "after-the-stranger")
        #expect(
            await eventually {
                try participant.shared.photo(photo)?.tags.map(\.name).contains("after-the-stranger") == true
            })
    }

    @Test func anEngineThatBelievesItIsAParticipantIsRefusedAndBacksOff() async throws {
        let owner = try EnginePeer("owner")
        let impostor = try EnginePeer("impostor")
        try impostor.shared.prepareParticipantZone("0b7a3f5e-0000-4000-8000-000000000001", owner: owner.peer)
        impostor.engine.setAddress(owner.address, for: owner.peer)
        impostor.engine.refreshMembership()
        #expect(
            await eventually {
                owner.events.all.filter { if case .refused = $0 { true } else { false } }.count >= 2
            })
        // Each refusal counts as a failed attempt: the redial delay grows.
        #expect(
            await eventually { impostor.engine.state.withLock { $0.records[owner.peer]?.attempt ?? 0 } >= 2 })
        #expect(
            await eventually {
                let status = impostor.engine.status(of: owner.peer)
                return !status.connected && status.lastError?.contains("not a member") == true
            }, "\(impostor.engine.status(of: owner.peer).lastError ?? "no error")")
    }

    @Test func garbageFramesEndThatConnectionOnly() async throws {
        let owner = try EnginePeer("owner")
        let participant = try EnginePeer("participant")
        let intruder = try RawPeer()
        let (zone, photo) = try shareZone(owner: owner, with: [participant])
        try owner.priv.setParticipant(
            zone: zone, peer: intruder.peer, permission: .readWrite, status: .accepted)
        owner.engine.refreshMembership()
        #expect(await eventually { try participant.shared.photo(photo) != nil })

        for garbage: [UInt8] in [[0, 0, 0, 3, 0x02, 0xFF, 0xFF], [0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3]] {
            let frames = try await intruder.converse(with: owner) { stream in
                try stream.connection.write(garbage)
                return RawPeer.drainNow(stream)
            }
            let goodbye = frames.compactMap { try? ErrorMessage(frame: $0) }.first
            #expect(goodbye?.code == .protocolError, "got \(frames.map(\.type))")
        }
        #expect(await eventually { owner.logged("connection closed: protocol error") })
        _ = try owner.priv.tag(photo: photo, name: "still-serving")
        #expect(
            await eventually {
                try participant.shared.photo(photo)?.tags.map(\.name).contains("still-serving") == true
            })
        #expect(owner.engine.status(of: participant.peer).connected)
    }

    @Test func pausingStopsReplicationAndResumingCatchesUp() async throws {
        let owner = try EnginePeer("owner")
        let participant = try EnginePeer("participant")
        let (_, photo) = try shareZone(owner: owner, with: [participant])
        #expect(await eventually { try participant.shared.photo(photo) != nil })

        participant.engine.pause()
        #expect(await eventually { !owner.engine.status(of: participant.peer).connected })
        #expect(await eventually { !participant.engine.status(of: owner.peer).connected })
        #expect(participant.engine.status(of: owner.peer).paused)
        _ = try owner.priv.tag(photo: photo, name: "during-pause")
        _ = try participant.shared.tag(photo: photo, name: "local-while-paused")
        #expect(!participant.engine.status(of: owner.peer).connected)
        participant.engine.resume()
        #expect(
            await eventually {
                try participant.shared.photo(photo)?.tags.map(\.name).contains("during-pause") == true
            })
        #expect(
            await eventually {
                try owner.priv.photo(photo)?.tags.map(\.name).contains("local-while-paused") == true
            })

        owner.engine.pause(participant.peer)
        #expect(
            await eventually {
                participant.engine.status(of: owner.peer).lastError?.contains("paused") == true
            })
        #expect(owner.engine.status(of: participant.peer).paused)
        owner.engine.resume(participant.peer)
        #expect(await eventually { owner.engine.status(of: participant.peer).connected })
    }

    /// Each owns a zone the other takes part in, so each dials the other; the two dials cross.
    @Test func simultaneousDialsKeepTheConnectionDialedByTheSmallerPeerID() async throws {
        let a = try EnginePeer("a")
        let b = try EnginePeer("b")
        let (_, photoOfA) = try shareZone(owner: a, with: [b])
        let (_, photoOfB) = try shareZone(owner: b, with: [a])
        // No addresses were given to the engines yet: dial both ways at once, by hand.
        a.engine.setAddress(nil, for: b.peer)
        b.engine.setAddress(nil, for: a.peer)
        async let fromA: Void = IOThread.run { a.engine.dial(b.peer, at: [b.address]) }
        async let fromB: Void = IOThread.run { b.engine.dial(a.peer, at: [a.address]) }
        _ = try await (fromA, fromB)
        let smaller = min(a.peer, b.peer)
        @Sendable func dialer(_ side: EnginePeer, _ other: PeerID) -> PeerID? {
            side.engine.state.withLock { $0.records[other]?.current?.dialer }
        }
        #expect(await eventually { dialer(a, b.peer) == smaller && dialer(b, a.peer) == smaller })
        #expect(await eventually { a.engine.state.withLock { $0.connections.count } == 1 })
        #expect(await eventually { b.engine.state.withLock { $0.connections.count } == 1 })
        #expect(await eventually { try b.shared.photo(photoOfA) != nil && a.shared.photo(photoOfB) != nil })
        _ = try a.shared.tag(photo: photoOfB, name: "both-ways")
        #expect(
            await eventually { try b.priv.photo(photoOfB)?.tags.map(\.name).contains("both-ways") == true })
    }
}
