import ControlProtocol
import Foundation
import Replication
import Store
import Support
import TestSupport
import Testing

/// Addresses that move (issue 13, SPEC §13): every device signs where it listens and tells
/// the members it meets; members pass the newest record on; a device that restarts on a new
/// port is found again with no new URL, and a URL whose owner address went stale still
/// works through a member.
@Suite(.onOwnThreads) struct AddressMoveTests {
    @Test func theOwnerRestartingOnANewPortIsFoundAgainWithinTenSeconds() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach()
        try alice.stop()
        let old = alice.address
        try alice.start()
        #expect(alice.address != old, "the owner restarted on a new port")
        for peer in [bob, carol] {
            try waitUntil("\(peer.name) to be connected to alice again", timeout: .seconds(10)) {
                try Self.entry(of: alice, at: peer)?["connected"] == true
            }
        }
        _ = try alice.json("tag", "add", shared.photo, "moved")
        for peer in [bob, carol] {
            try waitUntil("\(peer.name) to see alice's tag") {
                try peer.sees(share: shared.share) == ["beach.jpg": ["moved", "summer"]]
            }
            // The new address came signed, and is the one tried first from now on.
            let addresses = try Self.addresses(of: alice, at: peer)
            #expect(addresses.first { $0["source"] == "record" }?["address"]?.stringValue == alice.address)
        }
        try peers.stop()
    }

    @Test func aParticipantRestartingOnANewPortIsFoundAgainByTheOwnerAndTheOthers() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach(carolPermission: "read-write")
        try bob.stop()
        try bob.start()
        for peer in [alice, carol] {
            try waitUntil("\(peer.name) to be connected to bob again", timeout: .seconds(10)) {
                try Self.entry(of: bob, at: peer)?["connected"] == true
            }
        }
        _ = try carol.json("tag", "add", shared.photo, "from-carol")
        try waitUntil("bob to see carol's tag") {
            try bob.sees(share: shared.share) == ["beach.jpg": ["from-carol", "summer"]]
        }
        for peer in [alice, carol] {
            let listed = try Self.addresses(of: bob, at: peer).compactMap { $0["address"]?.stringValue }
            #expect(listed.contains(bob.address), "\(peer.name) knows bob's new address: \(listed)")
        }
        try peers.stop()
    }

    @Test func peersListsEveryKnownAddressWithItsSourceAndConfirmation() throws {
        let peers = try SharingPeers()
        let (alice, bob) = (peers.alice, peers.bob)
        _ = try peers.shareBeach()
        let addresses = try Self.addresses(of: alice, at: bob)
        let own = try #require(
            addresses.first { $0["address"]?.stringValue == alice.address }, "\(addresses)")
        #expect(own["source"] == "record")
        // Whichever side dialed, the dialing side confirmed the address it reached.
        let bobsAtAlice = try Self.addresses(of: bob, at: alice)
        let confirmed =
            (addresses + bobsAtAlice).filter {
                $0["last_confirmed"]?.stringValue != nil && $0["in_use"] == true
            }
        #expect(
            confirmed.count == 1,
            "one side dialed and uses the address it confirmed: \(addresses), \(bobsAtAlice)")
        let text = try bob.cli("peers").stdout
        #expect(text.contains(alice.address), "\(text)")
        try peers.stop()
    }

    @Test func aURLWhoseOwnerAddressIsStaleIsAcceptedThroughAMemberThatKnowsTheNewOne() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let dave = try SharingPeer("dave")
        for peer in peers.everyone + [dave] { peer.join(peers.everyone + [dave]) }
        let shared = try peers.shareBeach(carolPermission: "read-write")
        _ = try alice.json("share", "invite", shared.share, dave.person, "--permission", "read-write")
        let url = try #require(alice.share(shared.share)["url"]?.stringValue)
        let stale = alice.address
        #expect(url.contains(stale))
        try alice.stop()
        try alice.start()
        #expect(!url.contains(alice.address), "the URL names only the old address")
        for peer in [bob, carol] {
            try waitUntil("\(peer.name) to be connected to alice again") {
                try Self.entry(of: alice, at: peer)?["connected"] == true
            }
        }

        let accepted = try dave.json("accept", url)
        #expect(accepted["share"]?.stringValue == shared.share)
        let via = try #require(accepted["via"]?.stringValue, "\(accepted)")
        #expect([bob.id, carol.id].contains(via), "admitted by a member: \(accepted)")
        // The member told dave where alice is now: dave reaches her, and she ratifies.
        try waitUntil("dave to be connected to alice") {
            try Self.entry(of: alice, at: dave)?["connected"] == true
        }
        _ = try dave.json("tag", "add", shared.photo, "from-dave")
        try waitUntil("alice to see dave's tag") {
            try alice.sees(share: shared.share) == ["beach.jpg": ["from-dave", "summer"]]
        }
        #expect(try alice.participantStatus(dave, in: shared.share) == "accepted")
        for peer in peers.everyone + [dave] { try peer.stop() }
    }

    @Test func aURLWhoseFirstOwnerAddressIsDeadIsAcceptedAtTheNextOne() throws {
        let port = try Self.freeTCPPort()
        let alice = try SharingPeer(
            "alice",
            arguments: ["--listen", "127.0.0.1:\(port)", "--advertise", "127.0.0.1:1,127.0.0.1:\(port)"])
        let bob = try SharingPeer("bob")
        for peer in [alice, bob] { peer.join([alice, bob]) }
        let photo = try alice.addPhoto("beach.jpg", bytes: randomBytes(512), tags: ["summer"])
        let created = try alice.json("share", "create", photo, "--public", "read-only")
        let url = try #require(created["url"]?.stringValue)
        #expect(url.hasPrefix("peershare://127.0.0.1:1/"), "\(url)")
        #expect(url.contains("/at=127.0.0.1:\(port)"), "\(url)")
        let accepted = try bob.json("accept", url)
        #expect(accepted["via"] == .null, "the owner itself answered, at its second address: \(accepted)")
        let share = try #require(created["share"]?.stringValue)
        try waitUntil("bob to see the photo") { try bob.sees(share: share) == ["beach.jpg": ["summer"]] }
        let listed = try Self.addresses(of: alice, at: bob).compactMap { $0["address"]?.stringValue }
        #expect(Set(listed) == ["127.0.0.1:1", "127.0.0.1:\(port)"], "\(listed)")
        let text = try bob.cli("peers").stdout
        #expect(text.contains(" (+1)"), "an address, and one more known: \(text)")
        try alice.stop()
        try bob.stop()
    }

    @Test func acceptingAgainAURLWithTheOwnersNewAddressFindsItAgain() throws {
        let peers = try SharingPeers()
        let (alice, bob) = (peers.alice, peers.bob)
        let shared = try peers.shareBeach()
        try peers.carol.stop()
        // Both move while apart: neither can reach the other where it last was.
        try bob.stop()
        try alice.stop()
        try alice.start()
        try bob.start()
        try waitUntil("bob to fail to dial alice") {
            try Self.entry(of: alice, at: bob)?["last_error"]?.stringValue != nil
        }
        let url = try #require(alice.share(shared.share)["url"]?.stringValue)
        let again = try bob.refusal("accept", url)
        #expect(again.code.rawValue == "already_member")
        #expect(again.message.hasSuffix("the owner's addresses this URL gives are tried now"))
        do {
            try waitUntil("bob to be connected to alice again") {
                try Self.entry(of: alice, at: bob)?["connected"] == true
            }
        } catch {
            throw HarnessError("\(error): \(try Self.entry(of: alice, at: bob) ?? .null)\n\(bob.log)")
        }
        #expect(
            try Self.addresses(of: alice, at: bob).contains { $0["address"]?.stringValue == alice.address })
        try alice.stop()
        try bob.stop()
    }

    @Test func forgedAndReplayedAddressRecordsAreIgnored() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        _ = try peers.shareBeach()
        try carol.stop()
        let forger = try ForgingPeer(identityDirectory: carol.daemon.stateDirectory + "/identity")
        let aliceID = try PeerID(parsing: alice.id)

        // Bob tells carol (as he tells every member) alice's signed record: keep it.
        let first = try forger.connect(to: bob, capabilities: [.addressRecords])
        let genuine = try Self.receiveRecord(of: aliceID, on: first)
        #expect(genuine.addresses.map(\.description) == [alice.address])

        // Alice moves; bob learns her new record when she dials him.
        try alice.stop()
        try alice.start()
        try waitUntil("bob to hold alice's new address") {
            try Self.addresses(of: alice, at: bob).first { $0["source"] == "record" }?["address"]?.stringValue
                == alice.address
        }

        // A record naming alice with a newer version but signed by carol, and the old genuine
        // one replayed: bob keeps what he has.
        let decoy = PeerAddress(host: "127.0.0.1", port: 9)
        let forged = AddressRecord(
            device: aliceID, version: genuine.version + 1_000_000, addresses: [decoy],
            signature: AddressRecord.signed(
                addresses: [decoy], version: genuine.version + 1_000_000, by: forger.identity
            )
            .signature,
            certificate: genuine.certificate)
        try first.send(AddressRecordsMessage([forged, genuine]).frame())
        try bob.daemon.waitForLog("ignored an address record of \(alice.id.prefix(7)) with a bad signature")
        // A ping answered after the records: bob has handled them.
        try first.send(Ping(nonce: 7).frame())
        while let frame = try first.receive(), frame.type != .pong {}
        first.connection.close()
        let known = try Self.addresses(of: alice, at: bob)
        #expect(!known.contains { $0["address"]?.stringValue == decoy.description }, "\(known)")
        #expect(
            known.first { $0["source"] == "record" }?["address"]?.stringValue == alice.address, "\(known)")
        try alice.stop()
        try bob.stop()
    }

    /// Reads frames until an address-records message holds `device`'s record.
    private static func receiveRecord(of device: PeerID, on stream: FrameStream) throws -> AddressRecord {
        while let frame = try stream.receive() {
            guard frame.type == .addressRecords else { continue }
            if let record = try AddressRecordsMessage(frame: frame).records.first(where: {
                $0.device == device
            }) {
                return record
            }
        }
        throw HarnessError("the connection closed before a record of \(device.short) came")
    }

    /// A TCP port free now (bound and released).
    static func freeTCPPort() throws -> UInt16 {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        return listener.port
    }

    /// `peer`'s line in `viewer`'s `peers`.
    static func entry(of peer: SharingPeer, at viewer: SharingPeer) throws -> JSON? {
        try viewer.json("peers").arrayValue?.first { $0["peer_id"]?.stringValue == peer.id }
    }

    /// The addresses `viewer` knows for `peer`, in dial order.
    static func addresses(of peer: SharingPeer, at viewer: SharingPeer) throws -> [JSON] {
        try entry(of: peer, at: viewer)?["addresses"]?.arrayValue ?? []
    }
}
