import ControlProtocol
import Foundation
import Replication
import Store
import Support
import TestSupport
import Testing

/// Permissions between three real daemons: what a read-write participant writes reaches
/// everyone through the owner; what a read-only one tries is refused at its CLI, and a
/// change it forges past its own checks is refused by the owner and never relayed.
@Suite(.onOwnThreads) struct SharingPermissionTests {
    @Test func aReadWriteParticipantsTagReachesTheOwnerAndTheOtherParticipant() throws {
        let peers = try SharingPeers()
        let shared = try peers.shareBeach()
        let tag = try peers.bob.json("tag", "add", shared.photo, "sunset")
        try peers.settle()
        for peer in peers.everyone {
            #expect(try peer.sees() == ["beach.jpg": ["summer", "sunset"]], "\(peer.name)")
            let tags = try peer.json("tag", "list", "--share", shared.share)
            let sunset = try #require(tags.arrayValue?.first { $0["name"] == "sunset" }, "\(peer.name)")
            #expect(sunset["id"] == tag["id"] && sunset["uuid"] == tag["uuid"], "\(peer.name)")
        }
        // Bob's change reached alice from bob, and carol from bob directly (the mesh) or
        // from alice, who relays it: whichever came first.
        for (peer, authors) in [(peers.alice, [peers.bob]), (peers.carol, [peers.bob, peers.alice])] {
            let history = try #require(try peer.json("history").arrayValue)
            let arrival = history.first {
                $0["changes"]?.arrayValue?.contains { $0["id"] == tag["id"] } == true
            }
            #expect(
                authors.map { JSON.string("sync:\($0.id)") }.contains(arrival?["author"] ?? .null),
                "\(peer.name): \(String(describing: arrival))")
            let tokens = history.filter { $0["store"] == arrival?["store"] }.compactMap {
                $0["token"]?.intValue
            }
            // Synced transactions are dated when they are applied here, so history (sorted
            // by time) keeps token order.
            #expect(arrival?["timestamp"]?.stringValue?.hasPrefix("1970") == false, "\(peer.name)")
            #expect(tokens == tokens.sorted(), "\(peer.name)")
        }
        try peers.stop()
    }

    @Test func aReadOnlyParticipantsWritesAreRefusedAtItsCLIAndChangeNothingAnywhere() throws {
        let peers = try SharingPeers()
        let shared = try peers.shareBeach(carolPermission: "read-only")
        let carol = peers.carol
        let before = try peers.everyone.map { try $0.state() }
        let summer = try #require(
            try carol.json("tag", "list", "--share", shared.share)[0]?["id"]?.stringValue)
        let file = try carol.directory.write("mine.jpg", bytes: randomBytes(100))
        let readOnly = "you have read-only access to this share"
        let cases: [([String], String)] = [
            (["tag", "add", shared.photo, "sunset"], "cannot tag this photo: \(readOnly)"),
            (["tag", "remove", shared.photo, "summer"], "cannot untag this photo: \(readOnly)"),
            (["rate", shared.photo, "5"], "cannot rate this photo: \(readOnly)"),
            (["photo", "rename", shared.photo, "mine.jpg"], "cannot rename this photo: \(readOnly)"),
            (["photo", "delete", shared.photo], "cannot delete this photo: \(readOnly)"),
            (["tag", "delete", summer], "cannot delete this tag: \(readOnly)"),
            (["photo", "add", file, "--share", shared.share], "cannot add a photo: \(readOnly)"),
        ]
        for (arguments, message) in cases {
            #expect(
                try carol.daemon.refusal(arguments) == ControlError("permission_denied", message),
                "\(arguments)")
        }
        // The one-line message a person sees.
        let typed = try carol.cli("tag", "add", shared.photo, "sunset")
        #expect(typed.status == 1 && typed.stdout == "")
        #expect(typed.stderr == "peershare: cannot tag this photo: you have read-only access to this share\n")
        try peers.settle()
        #expect(try peers.everyone.map { try $0.state() } == before)
        try peers.stop()
    }

    @Test func aChangeForgedByAReadOnlyParticipantIsRefusedByTheOwnerAndNeverRelayed() throws {
        let peers = try SharingPeers()
        let shared = try peers.shareBeach(carolPermission: "read-only")
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let before = try peers.everyone.map { try $0.state() }

        // Carol's daemon is stopped; a hand-made peer with carol's identity skips her local
        // checks and sends alice a change set renaming the photo and creating a tag.
        try carol.stop()
        let forger = try ForgingPeer(identityDirectory: carol.daemon.stateDirectory + "/identity")
        #expect(forger.identity.peerID.description == carol.id)
        let tag = UUID().uuidString.lowercased()
        let answer = try forger.send(to: alice, zone: shared.share) { stamp in
            [
                ObjectChange(
                    entity: .photo, id: shared.photo,
                    fields: [FieldChange(field: PhotoField.name, value: .text("forged.jpg"), stamp: stamp)]),
                ObjectChange(
                    entity: .tag, id: tag,
                    fields: [
                        FieldChange(field: 1, value: .text(UUID().uuidString.lowercased()), stamp: stamp),
                        FieldChange(field: 2, value: .text("forged"), stamp: stamp),
                    ]),
            ]
        }
        #expect(answer.type == .changeSetAck, "alice answers the set (and refuses what is in it)")
        let short = String(carol.id.prefix(7))
        try alice.daemon.waitForLogLine(
            "<4>refused from the peer in zone \(shared.share): photo \(shared.photo): \(short) may not write")
        try alice.daemon.waitForLogLine(
            "<4>refused from the peer in zone \(shared.share): tag \(tag): \(short) may not write")

        try carol.start(sameAddress: true)
        try peers.settle()
        #expect(try peers.everyone.map { try $0.state() } == before)
        for peer in peers.everyone {
            #expect(try peer.sees() == ["beach.jpg": ["summer"]], "\(peer.name)")
        }
        // Nothing was relayed: bob never had anything to refuse.
        let refusals = bob.log.split(separator: "\n").filter { line in
            ["refused from the peer", "refused a change", "refused a signed set", "forged"].contains {
                line.contains($0)
            }
        }
        #expect(refusals.isEmpty, "\(refusals)")
        try peers.stop()
    }

    @Test func changesADepartedParticipantMadeReachAParticipantWhoJoinsLater() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let photo = try alice.addPhoto("beach.jpg", bytes: randomBytes(100), tags: ["summer"])
        let created = try alice.json("share", "create", photo, "--public", "read-only")
        let (share, url) = (created["share"]!.stringValue!, created["url"]!.stringValue!)
        _ = try alice.json("share", "invite", share, bob.id, "--permission", "read-write")
        _ = try bob.json("accept", url)
        try bob.syncWait()
        _ = try bob.json("tag", "add", photo, "sunset")
        try bob.syncWait()
        try alice.syncWait()
        #expect(try alice.sees() == ["beach.jpg": ["summer", "sunset"]])
        _ = try bob.json("share", "leave", share)
        try waitUntil("alice to see bob as removed", timeout: .seconds(30)) {
            try alice.participantStatus(bob, in: share) == "removed"
        }
        _ = try carol.json("accept", url)
        try peers.settle()
        // Carol checks bob's tag against what he could do when he made it (the owner relayed
        // it), not against his permission now.
        #expect(try carol.sees() == ["beach.jpg": ["summer", "sunset"]])
        #expect(!carol.log.contains("may not write to this share"))
        try peers.stop()
    }
}

/// A hand-driven peer that speaks the wire protocol with a stopped daemon's identity, to
/// deliver a change set the daemon's own checks would never let out.
struct ForgingPeer {
    let identity: PeerIdentity

    init(identityDirectory: String) throws {
        identity = try PeerIdentity.loadOrCreate(directory: identityDirectory)
    }

    /// Connects to `owner`, exchanges hellos and zone clocks, sends one change set of
    /// `zone` built on the owner's clock (objects stamped now by this peer) and returns the
    /// owner's answer to it.
    func send(to owner: SharingPeer, zone: String, objects: (Stamp) -> [ObjectChange]) throws -> Frame {
        let stream = try connect(to: owner)
        defer { stream.connection.close() }
        var clock: VectorClock?
        while clock == nil {
            guard let frame = try stream.receive() else {
                throw HarnessError("the owner closed the connection")
            }
            if frame.type == .zoneClocks {
                clock = try ZoneClocks(frame: frame).entries.first { $0.zone == zone }?.clock
            }
        }
        try stream.send(ZoneClocks([.init(zone: zone, clock: clock!)]).frame())
        let stamp = Stamp(hlc: HybridLogicalClock().tick(), peer: identity.peerID)
        let set = ChangeSet(
            zone: zone, since: clock!, until: clock!.merged(with: VectorClock([identity.peerID: stamp.hlc])),
            objects: objects(stamp))
        try stream.send(ChangeSetMessage(set).frame())
        while let frame = try stream.receive() {
            if frame.type == .changeSetAck || frame.type == .changeSetNotReady || frame.type == .error {
                return frame
            }
        }
        throw HarnessError("the owner closed the connection without answering the change set")
    }

    /// A replication connection to `peer` with this identity, hellos exchanged.
    func connect(to peer: SharingPeer, capabilities: Capabilities = []) throws -> FrameStream {
        let parts = peer.address.split(separator: ":")
        guard parts.count == 2, let port = UInt16(parts[1]) else {
            throw HarnessError("bad address \(peer.address)")
        }
        let socket = try TCPDialer.connect(host: String(parts[0]), port: port, timeout: .seconds(10))
        var configuration = TLSConfiguration.client(
            identity: identity, expecting: try PeerID(parsing: peer.id))
        configuration.readTimeout = .seconds(30)
        let stream = FrameStream(
            connection: try TLSConnection.handshake(over: socket, configuration: configuration))
        _ = try stream.exchangeHello(
            Hello(peerID: identity.peerID, capabilities: capabilities, purpose: .sync))
        return stream
    }
}
