import ControlProtocol
import Foundation
import Glibc
import Replication
import Store
import Support
import TestSupport
import Testing

/// A real owner and participant daemon syncing a share, and an attacker in the test process:
/// a stranger with its own valid certificate, a flood of connections that never speak, and
/// a participant that sends what no daemon would. The owner stays up, gives nothing away,
/// and the participant keeps syncing.
@Suite(.onOwnThreads) struct HostileNetworkTests {
    /// Alice owns a share of `beach.jpg` (tagged "summer") with bob, read-write; both in sync.
    private static func ownerAndParticipant(
        ownerConfig: String? = nil
    ) throws -> (alice: SharingPeer, bob: SharingPeer, shared: SharedPhoto) {
        let alice = try SharingPeer("alice", config: ownerConfig)
        let bob = try SharingPeer("bob")
        for peer in [alice, bob] { peer.join([alice, bob]) }
        let bytes = randomBytes(4096)
        let photo = try alice.addPhoto("beach.jpg", bytes: bytes, tags: ["summer"])
        let created = try alice.json("share", "create", photo, "--title", "Holidays")
        guard let share = created["share"]?.stringValue, let url = created["url"]?.stringValue else {
            throw HarnessError("share create answered \(created)")
        }
        _ = try alice.json("share", "invite", share, bob.id, "--permission", "read-write")
        _ = try bob.json("accept", url)
        for peer in [bob, alice, bob] { try peer.syncWait() }
        return (alice, bob, SharedPhoto(share: share, url: url, photo: photo, bytes: bytes))
    }

    private static func peerIDs(listedBy peer: SharingPeer) throws -> [String] {
        try peer.json("peers").arrayValue?.compactMap { $0["peer_id"]?.stringValue } ?? []
    }

    /// Alice tags the photo; bob must end up with the tag, through `sync --wait`.
    private static func tagReachesBob(
        _ name: String, alice: SharingPeer, bob: SharingPeer, photo: String
    ) throws {
        _ = try alice.json("tag", "add", photo, name)
        try alice.syncWait()
        try bob.syncWait()
        let seen = try bob.sees()
        #expect(seen["beach.jpg"]?.contains(name) == true, "\(seen)")
    }

    @Test func aStrangerWithItsOwnCertificateLearnsNothingAndLeavesNoTrace() throws {
        let (alice, bob, shared) = try Self.ownerAndParticipant()
        let zone = shared.share
        let stranger = try Attacker()

        // A replication hello announcing every feature a daemon has: alice's own hello, then
        // goodbye. Not her addresses, her device list or a list of zones, which an accepted
        // peer is sent next (they went to strangers too, before).
        let frames = Attacker.drain(try stranger.connect(to: alice, guest: false))
        #expect(
            try frames.map { try ErrorMessage(frame: $0) }
                == [ErrorMessage(code: .notMember, message: "not a member of any zone shared here")])

        // As a guest: the share does not exist for it, whatever it asks.
        func ask(_ frame: Frame) throws -> JoinResponse {
            try JoinResponse(frame: try stranger.ask(alice, frame))
        }
        let noSuchShare = JoinResponse.refused(
            code: "unknown_share", message: "the owner has no share \(zone)")
        let unknownZone = "00000000-0000-4000-8000-000000000000"
        #expect(
            try ask(ZoneNotice(type: .membershipCheck, zone: unknownZone).frame)
                == .refused(code: "unknown_share", message: "the owner has no share \(unknownZone)"))
        #expect(try ask(ZoneNotice(type: .membershipCheck, zone: zone).frame) == noSuchShare)
        #expect(try ask(ZoneNotice(type: .leaveNotice, zone: zone).frame) == noSuchShare)
        #expect(
            try ask(JoinRequest(zone: zone, token: String(repeating: "0", count: 32)).frame)
                == .refused(
                    code: "permission_denied",
                    message: "this share URL has been revoked or is not valid: ask the owner for a new one"))
        // A change set renaming the shared photo is acknowledged as for a zone it does not
        // share, and applies nothing.
        let stamp = Stamp(hlc: HybridLogicalClock().tick(), peer: stranger.identity.peerID)
        let rename = ChangeSet(
            zone: zone, since: VectorClock(), until: VectorClock([stranger.identity.peerID: stamp.hlc]),
            objects: [
                ObjectChange(
                    entity: .photo, id: shared.photo,
                    fields: [FieldChange(field: PhotoField.name, value: .text("stolen.jpg"), stamp: stamp)])
            ])
        #expect(
            try ChangeSetAck(frame: try stranger.ask(alice, ChangeSetMessage(rename).frame()))
                == ChangeSetAck(zone: zone, clock: VectorClock()))

        try waitUntil("alice to list bob alone in peers") { try Self.peerIDs(listedBy: alice) == [bob.id] }
        #expect(try alice.participantStatus(bob, in: zone) == "accepted")
        #expect(try alice.sees() == ["beach.jpg": ["summer"]])
        try Self.tagReachesBob("after-the-stranger", alice: alice, bob: bob, photo: shared.photo)
        try alice.stop()
        try bob.stop()
    }

    @Test func aFloodOfSilentConnectionsIsBoundedAndTheParticipantKeepsSyncing() throws {
        // A long timeout: the flood's held slots stay too young to be cut by later connections
        // (a tenth of it; `EngineInboundLimitTests` has that case), so at most 16 are held.
        let config = "max_incoming_handshakes = 16\nmax_guest_connections = 4\nhandshake_timeout = 120s\n"
        let (alice, bob, shared) = try Self.ownerAndParticipant(ownerConfig: config)
        let pid = alice.daemon.pid
        let before = try ProcessFigures(pid: pid)
        let attacker = try Attacker()

        // 100 TLS connections that never send a hello and 300 that never send a byte, mixed.
        var streams: [FrameStream] = []
        var sockets: [TCPSocket] = []
        for index in 0..<400 {
            if index % 4 == 0 {
                if let stream = try? attacker.tls(to: alice) { streams.append(stream) }
            } else {
                sockets.append(try attacker.halfOpen(to: alice))
            }
        }
        var peak = try ProcessFigures(pid: pid)
        // The TLS connections hold at most the 16 handshake slots (the others were closed at
        // once); the silent sockets wait for a ClientHello in alice's gate, one thread for
        // all of them, and hold no slot.
        #expect(streams.count <= 16, "\(streams.count) TLS connections held")
        try Self.tagReachesBob("during-the-flood", alice: alice, bob: bob, photo: shared.photo)
        let during = try ProcessFigures(pid: pid)
        if during.threads > peak.threads { peak = during }
        print("hostile flood: before \(before); peak \(peak)")
        #expect(peak.threads <= before.threads + 48, "before: \(before); during the flood: \(peak)")

        // The flood ends: threads and memory go back to about where they were.
        for stream in streams { stream.connection.close() }
        streams.removeAll()
        sockets.removeAll()
        try waitUntil("alice's threads to go back to \(before)", timeout: .seconds(30)) {
            try ProcessFigures(pid: pid).threads <= before.threads + 4
        }
        try waitUntil("alice's memory to go back to \(before)", timeout: .seconds(30)) {
            try ProcessFigures(pid: pid).residentKiB <= before.residentKiB + 8 * 1024
        }
        print("hostile flood: after \(try ProcessFigures(pid: pid))")
        #expect(try Self.peerIDs(listedBy: alice) == [bob.id])
        try Self.tagReachesBob("after-the-flood", alice: alice, bob: bob, photo: shared.photo)
        try alice.stop()
        try bob.stop()
    }

    @Test func aJoinWhileGuestsFillEverySlotIsToldTheOwnerIsBusy() throws {
        let config = "max_guest_connections = 2\nhandshake_timeout = 60s\n"
        let alice = try SharingPeer("alice", config: config)
        let carol = try SharingPeer("carol")
        for peer in [alice, carol] { peer.join([alice, carol]) }
        let photo = try alice.addPhoto("beach.jpg", bytes: randomBytes(1000))
        let created = try alice.json("share", "create", photo, "--public", "read-only")
        let url = try #require(created["url"]?.stringValue)
        // Two guests that never ask anything hold both slots.
        let attacker = try Attacker()
        var held = try (0..<2).map { _ in try attacker.connect(to: alice, guest: true) }
        // Alice sends her hello first, so the hellos are exchanged before she admits the
        // guests: carol must come once both hold their slot.
        let admitted = "a peer connected to join or leave a share peer=\(attacker.identity.peerID.short)"
        try waitUntil("alice to admit both guests:\n\(alice.log)") {
            alice.log.components(separatedBy: admitted).count - 1 >= 2
        }
        #expect(
            try carol.refusal("accept", url)
                == ControlError(
                    "owner_busy",
                    "the owner is busy: too many peers are joining or leaving shares here right now: try again later"
                ))
        held.removeAll()
        try waitUntil("carol's accept to go through") { try carol.cli("accept", url).status == 0 }
        try carol.syncWait()
        #expect(try carol.sees() == ["beach.jpg": []])
        try alice.stop()
        try carol.stop()
    }

    /// A guest whose join request comes in the same write as its hello, with every guest
    /// slot taken, is closed as busy and its request is not served: no answer, and alice
    /// records nothing of it (it was served before the close when both arrived in one read).
    @Test func aRefusedGuestsJoinRequestSentWithItsHelloIsNotServed() throws {
        let alice = try SharingPeer("alice", config: "max_guest_connections = 1\nhandshake_timeout = 60s\n")
        alice.join([alice])
        let photo = try alice.addPhoto("beach.jpg", bytes: randomBytes(1000))
        let created = try alice.json("share", "create", photo, "--public", "read-only")
        let url = try ShareURL(parsing: try #require(created["url"]?.stringValue))
        let holder = try Attacker()
        let held = try holder.connect(to: alice, guest: true)
        let admitted = "a peer connected to join or leave a share peer=\(holder.identity.peerID.short)"
        try waitUntil("alice to admit the first guest:\n\(alice.log)") { alice.log.contains(admitted) }

        let joiner = try Attacker()
        let stream = try joiner.tls(to: alice)
        try stream.send([
            Hello(peerID: joiner.identity.peerID, capabilities: .joining).frame(),
            JoinRequest(zone: url.zone, token: url.token).frame,
        ])
        let frames = Attacker.drain(stream)
        let closes = frames.filter { $0.type == .error }.compactMap { try? ErrorMessage(frame: $0) }
        #expect(closes.map(\.code) == [.busy], "\(frames.map(\.type))")
        #expect(!frames.contains { $0.type == .joinResponse }, "\(frames.map(\.type))")
        let participants = try alice.share(url.zone)["participants"]?.arrayValue ?? []
        #expect(!participants.contains { $0["peer_id"]?.stringValue == joiner.id }, "\(participants)")
        #expect(!alice.log.contains("stored a participant's membership operation"), "\(alice.log)")
        held.connection.close()
        try alice.stop()
    }

    /// A member removed from the share comes back with a replication connection: it is told
    /// it is no member and nothing else (not alice's addresses, her device list or any zone).
    @Test func aRemovedMemberIsToldItIsNoMemberAndNothingElse() throws {
        let (alice, bob, shared) = try Self.ownerAndParticipant()
        let (mallory, stream, _) = try Self.malloryReplicating(shared, with: alice)
        stream.connection.close()
        _ = try alice.json("share", "remove", shared.share, mallory.id)
        let frames = Attacker.drain(try mallory.connect(to: alice, guest: false))
        #expect(
            try frames.map { try ErrorMessage(frame: $0) }
                == [ErrorMessage(code: .notMember, message: "not a member of any zone shared here")])
        try Self.tagReachesBob("after-mallory", alice: alice, bob: bob, photo: shared.photo)
        for peer in [alice, bob] { try peer.stop() }
    }

    /// Mallory, invited read-only into alice's share, joins by its URL and opens a replication
    /// connection on which the zone's clocks have been exchanged.
    private static func malloryReplicating(
        _ shared: SharedPhoto, with alice: SharingPeer
    ) throws -> (mallory: Attacker, stream: FrameStream, since: VectorClock) {
        let zone = shared.share
        let mallory = try Attacker()
        _ = try alice.json("share", "invite", zone, mallory.id, "--permission", "read-only")
        let token = try ShareURL(parsing: shared.url).token
        #expect(
            try JoinResponse(frame: try mallory.ask(alice, JoinRequest(zone: zone, token: token).frame))
                == .accepted(title: "Holidays", permission: .readOnly))
        let stream = try mallory.connect(to: alice, guest: false)
        var clock: VectorClock?
        while clock == nil, let frame = try stream.receive() {
            if frame.type == .zoneClocks {
                clock = try ZoneClocks(frame: frame).entries.first { $0.zone == zone }?.clock
            }
        }
        let since = try #require(clock, "alice replicates the zone with mallory")
        try stream.send(ZoneClocks([.init(zone: zone, clock: since)]).frame())
        return (mallory, stream, since)
    }

    /// Nothing forged landed anywhere; alice is up and bob keeps syncing.
    private static func nothingLandedAndBobKeepsSyncing(
        alice: SharingPeer, bob: SharingPeer, photo: String
    ) throws {
        try Self.tagReachesBob("after-the-forgery", alice: alice, bob: bob, photo: photo)
        for peer in [alice, bob] {
            #expect(try peer.sees() == ["beach.jpg": ["after-the-forgery", "summer"]], "\(peer.name)")
        }
    }

    @Test func aChangeSetForgedInAnotherParticipantsNameIsRefusedAndLandsNowhere() throws {
        let (alice, bob, shared) = try Self.ownerAndParticipant()
        let (_, stream, since) = try Self.malloryReplicating(shared, with: alice)
        // On a replication connection: a change set in bob's name, renaming the photo.
        let bobID = try PeerID(parsing: bob.id)
        let stamp = Stamp(hlc: HybridLogicalClock().tick(), peer: bobID)
        let forged = ChangeSet(
            zone: shared.share, since: since, until: since.merged(with: VectorClock([bobID: stamp.hlc])),
            objects: [
                ObjectChange(
                    entity: .photo, id: shared.photo,
                    fields: [FieldChange(field: PhotoField.name, value: .text("forged.jpg"), stamp: stamp)])
            ])
        try stream.send(ChangeSetMessage(forged).frame())
        var answer: Frame?
        while answer == nil, let frame = try stream.receive() {
            if [.changeSetAck, .changeSetNotReady, .error].contains(frame.type) { answer = frame }
        }
        #expect(answer?.type == .changeSetAck, "alice answers the set and refuses what is in it")
        // Mallory goes, as the other attacks make it go: a member still connected that never
        // syncs would keep alice's `sync --wait` waiting.
        stream.connection.close()
        try Self.nothingLandedAndBobKeepsSyncing(alice: alice, bob: bob, photo: shared.photo)
        try alice.stop()
        try bob.stop()
    }

    @Test func anOversizedFrameOrAFrameOfAnUnknownTypeEndsOnlyItsOwnConnection() throws {
        let (alice, bob, shared) = try Self.ownerAndParticipant()
        let (mallory, stream, _) = try Self.malloryReplicating(shared, with: alice)
        // A frame announcing 2 GiB: the connection ends, and only it.
        try stream.connection.write([0x7F, 0xFF, 0xFF, 0xFF, 0x03])
        let goodbye = Attacker.drain(stream).compactMap { try? ErrorMessage(frame: $0) }.last
        #expect(goodbye?.code == .protocolError)
        #expect(
            goodbye?.message.contains("frame of 2147483647 bytes exceeds the limit of 16777216 bytes")
                == true,
            "\(String(describing: goodbye))")
        // And a frame of a type nobody assigned.
        let unknown = try mallory.connect(to: alice, guest: false)
        try unknown.connection.write([0, 0, 0, 3, 0x7E, 1, 2])
        let refusal = Attacker.drain(unknown).compactMap { try? ErrorMessage(frame: $0) }.last
        #expect(refusal?.code == .protocolError, "\(String(describing: refusal))")
        try Self.nothingLandedAndBobKeepsSyncing(alice: alice, bob: bob, photo: shared.photo)
        try alice.stop()
        try bob.stop()
    }
}
