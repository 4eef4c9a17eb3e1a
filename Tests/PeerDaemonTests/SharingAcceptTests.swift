import ControlProtocol
import Foundation
import TestSupport
import Testing

/// `accept URL` between real daemons: every bad URL and every acceptance the rules forbid
/// (SPEC §10) is refused with its message, and changes nothing on either side.
@Suite(.onOwnThreads) struct SharingAcceptTests {
    @Test func everyBadURLOrForbiddenAcceptanceIsRefusedWithItsMessageAndChangesNothing() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let photo = try alice.addPhoto("beach.jpg", bytes: randomBytes(300), tags: ["summer"])
        let created = try alice.json("share", "create", photo)
        let share = try #require(created["share"]?.stringValue)
        let revoked = try #require(created["url"]?.stringValue)
        _ = try alice.json("share", "invite", share, bob.id, "--permission", "read-write")
        let url = try #require(try alice.json("share", "revoke", share)["url"]?.stringValue)
        #expect(
            url != revoked && url.hasPrefix("peershare://\(alice.address)/\(share)?owner=\(alice.id)&invite=")
        )
        #expect(try alice.share(share)["url"]?.stringValue == url)
        let token = try #require(url.split(separator: "invite=").last.map(String.init))
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
        var before = try peers.everyone.map { try $0.state() }
        for (text, error) in cases {
            #expect(try bob.refusal("accept", text) == error, "\(text)")
        }
        // Not invited to a private share.
        #expect(
            try carol.refusal("accept", url)
                == ControlError(
                    "permission_denied",
                    "\(refused) this share is private: the owner must invite your peer ID (\(carol.id)) first"
                ))
        #expect(try peers.everyone.map { try $0.state() } == before)
        #expect(try alice.json("peers").arrayValue?.allSatisfy { $0["zones"] == [] } == true)

        // Accepting twice, and accepting one's own URL.
        _ = try bob.json("accept", url)
        try peers.settle()
        before = try peers.everyone.map { try $0.state() }
        #expect(
            try bob.refusal("accept", url)
                == ControlError("already_member", "you already take part in share \(share)"))
        #expect(
            try alice.refusal("accept", url)
                == ControlError("own_share", "this is your own share: you cannot accept it"))
        try peers.settle()
        #expect(try peers.everyone.map { try $0.state() } == before)
        #expect(try bob.sees() == ["beach.jpg": ["summer"]])
        try peers.stop()
    }
}
