import ControlProtocol
import Foundation
import Glibc
import Replication
import Store
import Support
import TestSupport
import Testing

/// Local discovery (issue 13, SPEC §13): devices of members on one LAN find each other by a
/// signed UDP broadcast, with no URL; with the setting off they do not; what cannot be
/// checked is ignored and counted.
@Suite(.onOwnThreads) struct LocalDiscoveryTests {
    @Test(.enabled(if: LANNamespaces.available, "network namespaces need root and a kernel that allows them"))
    func twoDaemonsOnOneLANFindEachOtherByDiscoveryAfterBothMoved() throws {
        let (lan, alice, bob, shared) = try Self.shareAcrossALAN(discovery: "on")
        try Self.bothMove(alice, bob)
        for (peer, other) in [(alice, bob), (bob, alice)] {
            try waitUntil("\(peer.name) to be connected to \(other.name) again") {
                try AddressMoveTests.entry(of: other, at: peer)?["connected"] == true
            }
        }
        _ = try bob.json("tag", "add", shared.photo, "found")
        try waitUntil("alice to see bob's tag") {
            try alice.sees(share: shared.share) == ["beach.jpg": ["found", "summer"]]
        }
        // Only discovery could tell either where the other went: at least one heard the other.
        let heard = try [alice, bob].map { try $0.json("status")["discovery"]?["heard"]?.intValue ?? 0 }
        #expect(heard.reduce(0, +) > 0, "\(heard)")
        try alice.stop()
        try bob.stop()
        _ = lan
    }

    @Test(.enabled(if: LANNamespaces.available, "network namespaces need root and a kernel that allows them"))
    func withLocalDiscoveryOffTwoDaemonsThatBothMovedDoNotFindEachOther() throws {
        let (lan, alice, bob, _) = try Self.shareAcrossALAN(discovery: "off")
        try Self.bothMove(alice, bob)
        #expect(try alice.json("status")["discovery"] == .null)
        // Each tries the other's old address and fails; three announcement intervals later
        // neither has found the other.
        for (peer, other) in [(alice, bob), (bob, alice)] {
            try waitUntil("\(peer.name) to fail to dial \(other.name)") {
                try AddressMoveTests.entry(of: other, at: peer)?["last_error"]?.stringValue != nil
            }
        }
        let until = ContinuousClock.now + .seconds(3)
        while ContinuousClock.now < until {
            #expect(try AddressMoveTests.entry(of: bob, at: alice)?["connected"] == false)
            #expect(try AddressMoveTests.entry(of: alice, at: bob)?["connected"] == false)
            usleep(200_000)
        }
        try alice.stop()
        try bob.stop()
        _ = lan
    }

    @Test(.enabled(if: LANNamespaces.available, "network namespaces need root and a kernel that allows them"))
    func anAddressTheOwnerGainsReachesTheParticipantInHerSignedRecord() throws {
        let (lan, alice, bob, _) = try Self.shareAcrossALAN(
            discovery: "off", extra: "address_check_interval = 1s\n")
        let port = try #require(alice.address.split(separator: ":").last)
        try lan.addAddressInA("10.213.0.11/24")
        try waitUntil("bob to hold alice's new address from her signed record") {
            try AddressMoveTests.addresses(of: alice, at: bob).contains {
                $0["address"]?.stringValue == "10.213.0.11:\(port)" && $0["source"] == "record"
            }
        }
        #expect(
            try alice.json("status")["advertise_all"]?.arrayValue?.contains(.string("10.213.0.11:\(port)"))
                == true)
        try alice.stop()
        try bob.stop()
    }

    @Test func forgedReplayedAndStrangersDiscoveryPacketsAreIgnored() throws {
        let port = try Self.freeUDPPort()
        let peers = try SharingPeers(configs: ["bob": "discovery_port = \(port)\ndiscovery_interval = 1s\n"])
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        _ = try peers.shareBeach()
        try carol.stop()
        let aliceID = try PeerID(parsing: alice.id)
        // Alice's genuine record, as any member can have it.
        let forger = try ForgingPeer(identityDirectory: carol.daemon.stateDirectory + "/identity")
        let stream = try forger.connect(to: bob, capabilities: [.addressRecords])
        var genuine: AddressRecord?
        while genuine == nil, let frame = try stream.receive() {
            guard frame.type == .addressRecords else { continue }
            genuine = try AddressRecordsMessage(frame: frame).records.first { $0.device == aliceID }
        }
        stream.connection.close()
        let old = try #require(genuine)
        try alice.stop()
        try alice.start()
        try waitUntil("bob to hold alice's new record") {
            try AddressMoveTests.addresses(of: alice, at: bob).first { $0["source"] == "record" }?["address"]?
                .stringValue == alice.address
        }

        let decoy = PeerAddress(host: "127.0.0.1", port: 9)
        let version = old.version + 10_000_000
        let forged = AddressRecord(
            device: aliceID, version: version, addresses: [decoy],
            signature: AddressRecord.signed(addresses: [decoy], version: version, by: forger.identity)
                .signature,
            certificate: old.certificate)
        let stranger = try Attacker()
        let strangers = AddressRecord.signed(addresses: [decoy], version: 1, by: stranger.identity)
        let socket = try UDPSocket(port: 0)
        for bytes in [
            Array("not a discovery packet".utf8), DiscoveryPacket(forged).encoded,
            DiscoveryPacket(old).encoded,
            DiscoveryPacket(strangers).encoded,
        ] {
            #expect(socket.send(bytes, to: "127.0.0.1", port: port))
        }
        try waitUntil("bob to count the four packets") {
            let ignored = try bob.json("status")["discovery"]?["ignored"]
            return ignored?["malformed"]?.intValue == 1 && ignored?["bad_signature"]?.intValue == 1
                && ignored?["stale"]?.intValue == 1 && ignored?["strangers"]?.intValue == 1
        }
        let known = try AddressMoveTests.addresses(of: alice, at: bob)
        #expect(!known.contains { $0["address"]?.stringValue == decoy.description }, "\(known)")
        #expect(!known.contains { $0["source"] == "lan" }, "\(known)")
        #expect(try bob.json("status")["discovery"]?["heard"] == 0)
        try alice.stop()
        try bob.stop()
    }

    /// Alice (in one namespace) shares beach.jpg with bob (in the other), who accepts its URL;
    /// both run with `local_discovery = discovery` and announce every second.
    private static func shareAcrossALAN(discovery: String, extra: String = "") throws -> (
        LANNamespaces, SharingPeer, SharingPeer, SharedPhoto
    ) {
        let lan = try LANNamespaces()
        let config = "local_discovery = \(discovery)\ndiscovery_interval = 1s\n" + extra
        let alice = try SharingPeer(
            "alice", config: config, arguments: ["--listen", "0.0.0.0:0"], launcher: lan.launcher(lan.a))
        let bob = try SharingPeer(
            "bob", config: config, arguments: ["--listen", "0.0.0.0:0"], launcher: lan.launcher(lan.b))
        for peer in [alice, bob] { peer.join([alice, bob]) }
        let bytes = randomBytes(4096)
        let photo = try alice.addPhoto("beach.jpg", bytes: bytes, tags: ["summer"])
        let created = try alice.json("share", "create", photo, "--title", "Holidays")
        let share = try #require(created["share"]?.stringValue)
        let url = try #require(created["url"]?.stringValue)
        #expect(url.contains("10.213.0.1:"), "the URL carries the LAN address: \(url)")
        _ = try alice.json("share", "invite", share, bob.id, "--permission", "read-write")
        _ = try bob.json("accept", url)
        try waitUntil("bob to see the photo") { try bob.sees(share: share) == ["beach.jpg": ["summer"]] }
        try settleAddresses(of: share, among: [alice, bob])
        return (lan, alice, bob, SharedPhoto(share: share, url: url, photo: photo, bytes: bytes))
    }

    /// Both stop, then both start again on new ports: neither can reach the other where it
    /// last was.
    private static func bothMove(_ alice: SharingPeer, _ bob: SharingPeer) throws {
        try alice.stop()
        try bob.stop()
        try alice.start()
        try bob.start()
    }

    private static func freeUDPPort() throws -> UInt16 {
        try UDPSocket(port: 0).port
    }
}
