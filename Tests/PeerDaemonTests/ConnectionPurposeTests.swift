import ControlProtocol
import Foundation
import Glibc
import Replication
import Store
import TestSupport
import Testing

/// What a connection is for, as a daemon reads it from the hello (docs/PROTOCOL.md §4): a
/// guest by its purpose, or — from a peer of the previous release — by bit 63; a purpose it
/// does not serve is refused with its reason; a stranger's replication connection is refused
/// and reported on `watch` as `peer.refused`.
@Suite(.onOwnThreads) struct ConnectionPurposeTests {
    static let unknownZone = "00000000-0000-4000-8000-000000000000"

    /// A hello written byte by byte: magic, version 1, peer ID, capabilities and, when
    /// `purpose` is given, the largest frame (16 MiB) and the purpose.
    static func hello(_ peer: PeerID, capabilities: UInt64, purpose: UInt8?) -> Frame {
        var writer = BinaryWriter()
        writer.writeFixed(Array("PSHR".utf8))
        writer.write(UInt16(1))
        writer.write(peer)
        writer.write(capabilities)
        if let purpose {
            writer.write(UInt32(16 << 20))
            writer.write(purpose)
        }
        return Frame(type: .hello, payload: writer.bytes)
    }

    /// Sends `hello` on a new TLS connection to `target` and, once `target` has sorted the
    /// connection (its zone clocks follow that decision), a membership check of a zone it
    /// does not have; returns what `target` sent besides its hello, zone clocks and pings,
    /// until it answered or closed.
    static func visit(_ target: SharingPeer, as visitor: Attacker, hello: Frame) throws -> [Frame] {
        let stream = try visitor.tls(to: target)
        defer { stream.connection.close() }
        try stream.send(hello)
        var frames: [Frame] = []
        var asked = false
        while let frame = try? stream.receive() {
            switch frame.type {
            case .hello, .ping: continue
            case .zoneClocks:
                guard !asked else { continue }
                asked = true
                try? stream.send(ZoneNotice(type: .membershipCheck, zone: unknownZone).frame)
            default:
                frames.append(frame)
                if frame.type == .joinResponse || frame.type == .error { return frames }
            }
        }
        return frames
    }

    static let noSuchShare = JoinResponse.refused(
        code: "unknown_share", message: "the owner has no share \(unknownZone)")

    @Test func aGuestThatStatesThePurposeJoinIsAnsweredWithoutTheOldBit() throws {
        let alice = try SharingPeer("alice")
        let visitor = try Attacker()
        let frames = try Self.visit(
            alice, as: visitor, hello: Self.hello(visitor.identity.peerID, capabilities: 0, purpose: 1))
        #expect(try frames.map { try JoinResponse(frame: $0) } == [Self.noSuchShare], "\(frames.map(\.type))")
        try alice.stop()
    }

    @Test func aGuestOfThePreviousReleaseIsAnsweredByItsJoiningBit() throws {
        let alice = try SharingPeer("alice")
        let visitor = try Attacker()
        let frames = try Self.visit(
            alice, as: visitor,
            hello: Self.hello(visitor.identity.peerID, capabilities: 1 << 63, purpose: nil))
        #expect(try frames.map { try JoinResponse(frame: $0) } == [Self.noSuchShare], "\(frames.map(\.type))")
        try alice.stop()
    }

    @Test func aLinkConnectionTakesOnlyALinkRequestAndAnUnknownPurposeIsRefused() throws {
        let alice = try SharingPeer("alice")
        let visitor = try Attacker()
        let link = try Self.visit(
            alice, as: visitor, hello: Self.hello(visitor.identity.peerID, capabilities: 0, purpose: 2))
        #expect(
            try link.map { try JoinResponse(frame: $0) }
                == [.refused(code: .unexpected, message: "a link connection takes only a link request")])
        let unknown = try Self.visit(
            alice, as: visitor, hello: Self.hello(visitor.identity.peerID, capabilities: 0, purpose: 3))
        #expect(
            try unknown.map { try ErrorMessage(frame: $0) }
                == [
                    ErrorMessage(
                        code: .protocolError,
                        message:
                            "protocol error: a connection for purpose 3, which this PeerShare does not serve (it serves sync, join and link)"
                    )
                ])
        try alice.stop()
    }

    @Test func aStrangersReplicationConnectionIsRefusedAndReportedOnWatch() throws {
        let alice = try SharingPeer("alice")
        let watch = try alice.daemon.startCLI("--json", "watch", "--type", "peer.refused", label: "watch")
        defer { watch.send(SIGTERM) }
        try waitUntil("alice's watch client to subscribe") { try alice.json("status")["watchers"] == 1 }
        let stranger = try Attacker()
        let frames = Attacker.drain(try stranger.connect(to: alice, guest: false))
        #expect(
            try frames.last.map { try ErrorMessage(frame: $0) }
                == ErrorMessage(code: .notMember, message: "not a member of any zone shared here"))
        try waitUntil("peer.refused on alice's watch: \(watch.stdout)") {
            watch.stdout.contains("peer.refused")
        }
        let event = try #require(
            watch.stdout.split(separator: "\n").compactMap { JSONLine.decode(Data($0.utf8)) }.first)
        #expect(event["data"]?["peer_id"]?.stringValue == stranger.id)
        #expect(event["data"]?["reason"]?.stringValue == "not a member of any zone shared here")
        try alice.daemon.waitForLogLine("<6>refused a connection from \(stranger.id)")
        try alice.stop()
    }
}
