import ControlProtocol
import Foundation
import TestSupport
import Testing

/// `accept URL` between real daemons: every bad URL and every acceptance the rules forbid
/// (SPEC §10) is refused with its message, and changes nothing on either side.
@Suite(.onOwnThreads) struct SharingAcceptTests {
    /// Alice's private share of `beach.jpg` with bob invited read-write, and its URL revoked
    /// once: the URL before the revocation and the one after.
    private static func invitedShare(_ peers: SharingPeers) throws -> (
        share: String, revoked: String, url: String
    ) {
        let (alice, bob) = (peers.alice, peers.bob)
        let photo = try alice.addPhoto("beach.jpg", bytes: randomBytes(300), tags: ["summer"])
        let created = try alice.json("share", "create", photo)
        guard let share = created["share"]?.stringValue, let revoked = created["url"]?.stringValue else {
            throw HarnessError("share create answered \(created)")
        }
        _ = try alice.json("share", "invite", share, bob.id, "--permission", "read-write")
        let revocation = try alice.json("share", "revoke", share)
        guard let url = revocation["url"]?.stringValue else {
            throw HarnessError("share revoke answered \(revocation)")
        }
        return (share, revoked, url)
    }

    @Test func everyBadURLOrUninvitedAcceptanceIsRefusedWithItsMessageAndChangesNothing() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let (share, revoked, url) = try Self.invitedShare(peers)
        #expect(
            url != revoked && url.hasPrefix("peershare://\(alice.address)/\(share)/owner=\(alice.id)/invite=")
        )
        #expect(try alice.share(share)["url"]?.stringValue == url)
        let token = try #require(
            url.split(separator: "invite=").last?.split(separator: "/").first.map(String.init))
        let unknownZone = UUID().uuidString.lowercased()
        let address = alice.address

        let refused = "the owner refused:"
        let cases: [(String, ControlError)] = [
            (
                "peershare://host",
                ControlError(
                    "invalid_url", "the share URL lacks the share ID after HOST:PORT/: copy the whole URL")
            ),
            (
                "https://\(address)/\(share)?owner=\(alice.id)&invite=\(token)",
                ControlError(
                    "invalid_url",
                    "not a share URL: it must start with peershare:// (copy the whole URL the owner gave you)"
                )
            ),
            (
                "peershare://\(address)/holidays?owner=\(alice.id)&invite=\(token)",
                ControlError("invalid_url", "malformed share URL (share ID): 'holidays' is not a share ID")
            ),
            (
                "peershare://\(address)/\(share)?owner=\(alice.id)",
                ControlError("invalid_url", "the share URL lacks invite=TOKEN: copy the whole URL")
            ),
            (
                "peershare://\(address)/\(share)?owner=\(alice.id)&invite=\(token.prefix(16))",
                ControlError(
                    "invalid_url",
                    "malformed share URL (invite): the token must be at least 32 hexadecimal characters; "
                        + "copy the whole URL")
            ),
            (
                "peershare://127.0.0.1/\(share)?owner=\(alice.id)&invite=\(token)",
                ControlError("invalid_url", "malformed share URL (address): '127.0.0.1' is not HOST:PORT")
            ),
            (
                "peershare://\(address)/\(unknownZone)?owner=\(alice.id)&invite=\(token)",
                ControlError("unknown_share", "\(refused) the owner has no share \(unknownZone)")
            ),
            (
                "peershare://\(address)/\(share)?owner=\(carol.id)&invite=\(token)",
                ControlError(
                    "wrong_owner",
                    "the daemon at \(address) is not the share's owner: it is \(alice.id), the URL names \(carol.id)"
                )
            ),
            (
                revoked,
                ControlError(
                    "permission_denied",
                    "\(refused) this share URL has been revoked or is not valid: ask the owner for a new one")
            ),
            (
                "peershare://\(address)/\(share)?owner=\(alice.id)&invite=\(String(repeating: "0", count: 32))",
                ControlError(
                    "permission_denied",
                    "\(refused) this share URL has been revoked or is not valid: ask the owner for a new one")
            ),
        ]
        let before = try peers.everyone.map { try $0.state() }
        for (text, error) in cases {
            #expect(try bob.refusal("accept", text) == error, "\(text)")
        }
        #expect(try peers.everyone.map { try $0.state() } == before)
        // Not invited to a private share: a request to join, which the owner sees.
        #expect(
            try carol.refusal("accept", url)
                == ControlError(
                    "join_requested",
                    "the owner has your request to join: this share is private and you are not invited yet: your "
                        + "request to join went to the owner; accept the URL again once they approve it (or invite "
                        + "your person ID (\(carol.person)))"
                ))
        #expect(try alice.share(share)["requests"]?.arrayValue?.map { $0["peer_id"] } == [.string(carol.id)])
        #expect(try alice.json("peers").arrayValue?.allSatisfy { $0["zones"] == [] } == true)
        try peers.stop()
    }

    @Test func acceptingTwiceOrAcceptingOnesOwnShareIsRefusedAndChangesNothing() throws {
        let peers = try SharingPeers()
        let (alice, bob) = (peers.alice, peers.bob)
        let (share, _, url) = try Self.invitedShare(peers)
        _ = try bob.json("accept", url)
        try peers.settle()
        let before = try peers.everyone.map { try $0.state() }
        #expect(
            try bob.refusal("accept", url)
                == ControlError(
                    "already_member",
                    "you already take part in share \(share); the owner's addresses this URL gives are tried now"
                ))
        #expect(
            try alice.refusal("accept", url)
                == ControlError("own_share", "this is your own share: you cannot accept it"))
        try peers.settle()
        #expect(try peers.everyone.map { try $0.state() } == before)
        #expect(try bob.sees() == ["beach.jpg": ["summer"]])
        try peers.stop()
    }
}
