import ControlProtocol
import Foundation
import TestSupport
import Testing

/// Managing shares after `share create` (SPEC §15), with real daemons: the URL pasted
/// unquoted, `share set`, join requests approved and denied, a share that ended shown to its
/// participant until dismissed, and `share keep`.
@Suite(.serialized) struct ShareManagementTests {
    /// `peershare --socket S accept URL` run by bash with the URL pasted unquoted.
    private static func acceptUnquoted(_ url: String, by peer: SharingPeer) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let line = "\(try Products.path("peershare")) --socket \(peer.daemon.socketPath) accept \(url)"
        let child = try ChildProcess(
            executable: "/bin/bash", arguments: ["-c", line],
            environment: DaemonProcess.baseEnvironment(peer.directory),
            directory: peer.directory, label: "bash-accept")
        let status = try child.waitForExit(timeout: .seconds(60))
        return (status, child.stdout, child.stderr)
    }

    @Test func createPrintsTheIDAndAURLThatSurvivesAShellAndSetReachesTheParticipants() throws {
        let peers = try SharingPeers()
        let (alice, bob) = (peers.alice, peers.bob)
        let photo = try alice.addPhoto("beach.jpg", bytes: randomBytes(3000), tags: ["summer"])
        let created = try alice.cli(
            "share", "create", photo, "--title", "Été & co; \"x\"", "--public", "read-only")
        #expect(created.status == 0, "\(created)")
        let lines = created.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.count == 2 && lines[0].hasPrefix("share ") && lines[1].hasPrefix("url   "), "\(created)")
        let share = String(lines[0].dropFirst("share ".count))
        let url = String(lines[1].dropFirst("url   ".count))

        let accepted = try Self.acceptUnquoted(url, by: bob)
        #expect(accepted.status == 0 && accepted.stdout.contains("joined \"Été & co; \"x\"\""), "\(accepted)")
        try waitUntil("bob holds the photo") { try bob.sees(share: share) == ["beach.jpg": ["summer"]] }

        let set = try alice.json("share", "set", share, "--title", "Summer", "--public", "none")
        #expect(set["title"] == "Summer" && set["public_permission"] == "none" && set["id"] == .string(share))
        try waitUntil("bob sees the new title and public permission", timeout: .seconds(60)) {
            let seen = try bob.share(share)
            return seen["title"] == "Summer" && seen["public_permission"] == "none"
        }
        #expect(
            try alice.refusal("share", "set", share)
                == ControlError(
                    "invalid_arguments", "share.set: give a new title, a public permission, or both"))
        let refused = try bob.refusal("share", "set", share, "--title", "Mine")
        #expect(refused.code == "permission_denied", "\(refused)")
        #expect(try bob.share(share)["title"] == "Summer")
    }

    @Test func anUninvitedAcceptIsARequestTheOwnerApprovesOrDenies() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let photo = try alice.addPhoto("beach.jpg", bytes: randomBytes(3000))
        let created = try alice.json("share", "create", photo)
        let share = try #require(created["share"]?.stringValue)
        let url = try #require(created["url"]?.stringValue)
        let watch = try alice.daemon.startCLI("--json", "watch", "--type", "share", label: "watch-share")
        try waitUntil("alice's watcher") { try alice.json("status")["watchers"] == 1 }

        let asked = try bob.cli("accept", url)
        #expect(asked.status == 1, "\(asked)")
        #expect(asked.stderr.contains("the owner has your request to join"), "\(asked)")
        let requests = try alice.share(share)["requests"]?.arrayValue ?? []
        #expect(requests.map { $0["peer_id"] } == [.string(bob.id)])
        #expect(requests.first?["person_id"] == .string(bob.person))
        try waitUntil("the request event in:\n\(watch.stdout)") { watch.stdout.contains("share.request") }
        #expect(watch.stdout.contains(bob.id))
        let shown = try alice.cli("share", "show", share)
        #expect(shown.stdout.contains("requests to join"), "\(shown)")
        // Asking again keeps one request.
        _ = try bob.cli("accept", url)
        #expect(try alice.share(share)["requests"]?.arrayValue?.count == 1)

        let approved = try alice.json("share", "approve", share, String(bob.person.prefix(10)))
        #expect(approved["status"] == "approved" && approved["permission"] == "read-only")
        #expect(try alice.share(share)["requests"] == [])
        let joined = try bob.json("accept", url)
        #expect(joined["share"] == .string(share) && joined["permission"] == "read-only")

        _ = try carol.cli("accept", url)
        let denied = try alice.json("share", "deny", share, String(carol.id.prefix(10)))
        #expect(denied["status"] == "denied")
        let again = try carol.cli("accept", url)
        #expect(again.status == 1 && again.stderr.contains("declined your request"), "\(again)")
        #expect(try alice.share(share)["requests"] == [])
        #expect(
            try alice.refusal("share", "approve", share, "ffff").code == "not_found")
        // An invitation still lets a denied person in.
        _ = try alice.json("share", "invite", share, carol.person)
        #expect(try carol.json("accept", url)["share"] == .string(share))
        watch.send(SIGTERM)
    }

    @Test func aStoppedShareIsShownToItsParticipantUntilDismissedAndKeptPhotosStay() throws {
        let peers = try SharingPeers()
        let (alice, bob) = (peers.alice, peers.bob)
        let shared = try peers.shareBeach()

        let kept = try bob.json("share", "keep", shared.share)
        let copies = kept["kept"]?.arrayValue ?? []
        #expect(copies.count == 1 && kept["without_data"] == [], "\(kept)")
        let copy = try #require(copies.first?.stringValue)
        let exported = bob.directory.path + "/copy.jpg"
        _ = try bob.json("photo", "export", copy, exported)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: exported))) == shared.bytes)
        #expect(try bob.sees(share: "default") == ["beach.jpg": ["summer"]])

        _ = try alice.json("share", "stop", shared.share)
        try waitUntil("bob's copy of the share ends", timeout: .seconds(60)) {
            try bob.json("share", "list").arrayValue?.first { $0["id"] == .string(shared.share) }?["ended"]
                != nil
        }
        let ended = try #require(
            try bob.json("share", "list").arrayValue?.first { $0["id"] == .string(shared.share) })
        #expect(ended["ended"]?["reason"] == "stopped" && ended["title"] == "Holidays", "\(ended)")
        let listed = try bob.cli("share", "list")
        #expect(
            listed.stdout.contains("participant (ended: stopped)") && listed.stdout.contains("share dismiss"))
        let shown = try bob.cli("share", "show", String(shared.share.prefix(8)))
        #expect(shown.status == 0 && shown.stdout.contains("the owner stopped"), "\(shown)")
        // The kept copy outlives the share.
        #expect(try bob.sees(share: "default") == ["beach.jpg": ["summer"]])

        #expect(try bob.json("share", "dismiss", String(shared.share.prefix(8)))["dismissed"] == true)
        #expect(try bob.json("share", "list") == [])
        #expect(try bob.refusal("share", "dismiss", shared.share).code == "not_found")
    }

    @Test func aRemovedParticipantSeesWhyAndKeepIsOnlyForParticipants() throws {
        let peers = try SharingPeers()
        let (alice, carol) = (peers.alice, peers.carol)
        let shared = try peers.shareBeach()
        #expect(try alice.refusal("share", "keep", shared.share).code == "invalid")

        _ = try alice.json("share", "remove", shared.share, carol.id)
        try waitUntil("carol's copy of the share ends", timeout: .seconds(60)) {
            try carol.json("share", "list").arrayValue?.first { $0["id"] == .string(shared.share) }?["ended"]
                != nil
        }
        let ended = try #require(
            try carol.json("share", "list").arrayValue?.first { $0["id"] == .string(shared.share) })
        #expect(ended["ended"]?["reason"] == "removed", "\(ended)")
        #expect(try carol.sees() == [:])
    }
}
