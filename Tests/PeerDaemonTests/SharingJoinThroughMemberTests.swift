import ControlProtocol
import Foundation
import TestSupport
import Testing

/// Joining through a member (issue 12, SPEC §13): the share URL lists the owner's accepted
/// participants where they listen; with the owner's daemon stopped, an invited person
/// accepts through one of them, which checks the invitation against the share's signed
/// membership log. The joiner then syncs with the members, and the owner ratifies the join
/// when it returns.
@Suite(.onOwnThreads) struct SharingJoinThroughMemberTests {
    @Test func anInvitedPersonJoinsThroughAParticipantWhileTheOwnerIsStopped() throws {
        let (peers, dave, shared) = try Self.beachSharedWithBobAndCarol(newcomer: "dave")
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let everyone = peers.everyone + [dave]
        _ = try alice.json("share", "invite", shared.share, dave.person, "--permission", "read-write")
        let url = try #require(alice.share(shared.share)["url"]?.stringValue)
        for member in [bob, carol] {
            #expect(url.contains("member=\(member.id)@\(member.address)"), "\(url) lists \(member.name)")
        }
        try alice.stop()

        let accepted = try dave.json("accept", url)
        #expect(accepted["share"]?.stringValue == shared.share)
        #expect(accepted["permission"]?.stringValue == "read-write")
        let via = try #require(accepted["via"]?.stringValue, "\(accepted)")
        #expect([bob.id, carol.id].contains(via), "admitted by a participant: \(accepted)")

        // The zone reaches dave from the members, photo data included.
        try waitUntil("dave to see the share's photo") {
            try dave.sees(share: shared.share) == ["beach.jpg": ["summer"]]
        }
        try dave.syncWait(unreachable: [alice])
        #expect(try dave.exported(shared.photo) == shared.bytes)

        // Dave writes, and so does bob: every participant sees both while alice is away.
        _ = try dave.json("tag", "add", shared.photo, "from-dave")
        _ = try bob.json("tag", "add", shared.photo, "from-bob")
        let expected = ["beach.jpg": ["from-bob", "from-dave", "summer"]]
        for peer in [bob, carol, dave] {
            try waitUntil("\(peer.name) to see dave's and bob's tags") {
                try peer.sees(share: shared.share) == expected
            }
        }

        // Alice returns: she ratifies dave's join, takes his tag, and everyone ends the same.
        try alice.start(sameAddress: true)
        do {
            try waitUntil("alice to record dave as an accepted participant") {
                try alice.participantStatus(dave, in: shared.share) == "accepted"
            }
        } catch {
            throw HarnessError("\(error)\n--- alice's log:\n\(alice.log)")
        }
        for peer in [bob, carol, dave, alice, bob, carol, dave] { try peer.syncWait() }
        for peer in everyone {
            #expect(try peer.sees(share: shared.share) == expected, "\(peer.name)")
            #expect(try peer.participantStatus(dave, in: shared.share) == "accepted", "\(peer.name)")
        }
        #expect(try dave.exported(shared.photo) == shared.bytes)
        for peer in everyone {
            let refusals = peer.log.split(separator: "\n").filter { line in
                [
                    "refused a membership", "refused a signed set", "refused from the peer",
                    "refused a change",
                    "did not ratify", "could not check",
                ].contains { line.contains($0) }
            }
            #expect(refusals.isEmpty, "\(peer.name) refused nothing:\n\(refusals.joined(separator: "\n"))")
        }
        for peer in everyone { try peer.stop() }
    }

    /// The owner returns while every member that could relay the joiner's accept is away: the
    /// joiner shows the owner its signed accept itself, and the owner ratifies it and takes
    /// the joiner's changes.
    @Test func aJoinerAsksTheReturningOwnerItselfWhenNoMemberIsThere() throws {
        let (peers, dave, shared) = try Self.beachSharedWithBobAndCarol(newcomer: "dave")
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        _ = try alice.json("share", "invite", shared.share, dave.person, "--permission", "read-write")
        let url = try #require(alice.share(shared.share)["url"]?.stringValue)
        try alice.stop()
        let accepted = try dave.json("accept", url)
        #expect(accepted["via"]?.stringValue != nil, "\(accepted)")
        // The share's content comes from the member that admitted dave, a moment later.
        try waitUntil("dave to see the share's photo") {
            try dave.sees(share: shared.share) == ["beach.jpg": ["summer"]]
        }
        _ = try dave.json("tag", "add", shared.photo, "from-dave")
        let expected = ["beach.jpg": ["from-dave", "summer"]]
        for peer in [bob, carol] {
            try waitUntil("\(peer.name) to see dave's tag") { try peer.sees(share: shared.share) == expected }
        }
        try bob.stop()
        try carol.stop()

        try alice.start(sameAddress: true)
        do {
            try waitUntil("alice to ratify dave's join and take his tag", timeout: .seconds(60)) {
                try alice.participantStatus(dave, in: shared.share) == "accepted"
                    && alice.sees(share: shared.share) == expected
            }
        } catch {
            throw HarnessError("\(error)\n--- alice's log:\n\(alice.log)\n--- dave's log:\n\(dave.log)")
        }
        #expect(dave.log.contains("the owner ratified this device's join of share \(shared.share)"))
        try dave.syncWait()
        #expect(try dave.sees(share: shared.share) == expected, "nothing of dave's was undone")
        try alice.stop()
        try dave.stop()
    }

    /// A person joins a share open to the public, by the URL's token, through a member while
    /// the owner is stopped; its daemon replicates with nobody (paused) before that member
    /// stops for good, so the log holding the accept the member kept never reaches it. Back,
    /// the owner ratifies the join from the accepts the joiner kept from its request (an
    /// accept signed anew without the token would not do: nobody invited dave).
    @Test func aJoinByTheURLsTokenIsRatifiedThoughTheMemberThatAdmittedItNeverReturns() throws {
        let (peers, dave, shared) = try Self.beachSharedWithBobAndCarol(newcomer: "dave")
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        _ = try alice.json("share", "set", shared.share, "--public", "read-only")
        let url = try #require(alice.share(shared.share)["url"]?.stringValue)
        try waitUntil("bob to hold alice's membership log, open to the public") {
            let owners = try alice.share(shared.share)["membership"]?["operations"]
            let bobs = try bob.share(shared.share)["membership"]
            return bobs?["operations"] == owners && bobs?["matches_records"] == true
        }
        try carol.stop()
        try alice.stop()
        _ = try dave.json("pause")
        let accepted = try dave.json("accept", url)
        #expect(accepted["via"]?.stringValue == bob.id, "\(accepted)")
        #expect(accepted["permission"]?.stringValue == "read-only", "\(accepted)")
        try bob.stop()

        try alice.start(sameAddress: true)
        _ = try dave.json("resume")
        do {
            try waitUntil("alice to ratify dave's join", timeout: .seconds(60)) {
                try alice.participantStatus(dave, in: shared.share) == "accepted"
            }
        } catch {
            throw HarnessError("\(error)\n--- alice's log:\n\(alice.log)\n--- dave's log:\n\(dave.log)")
        }
        #expect(dave.log.contains("the owner ratified this device's join of share \(shared.share)"))
        try waitUntil("dave to see the share's photo") {
            try dave.sees(share: shared.share) == ["beach.jpg": ["summer"]]
        }
        try alice.stop()
        try dave.stop()
    }

    /// A member admits only what the share's signed log admits: a person the owner never
    /// invited, holding the URL of a private share, is refused by the member with the reason,
    /// and nothing changes on either side.
    @Test func aMemberRefusesAJoinTheLogDoesNotAdmitAndNothingChanges() throws {
        let (peers, eve, shared) = try Self.beachSharedWithBobAndCarol(newcomer: "eve")
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let url = try #require(alice.share(shared.share)["url"]?.stringValue)
        try alice.stop()
        let before = try bob.share(shared.share)

        let refusal = try eve.refusal("accept", url)
        #expect(refusal.code.rawValue == "permission_denied", "\(refusal)")
        #expect(refusal.message.contains("not valid"), "\(refusal)")
        #expect(try (eve.json("share", "list").arrayValue ?? []).isEmpty, "eve holds no share")
        #expect(try bob.share(shared.share) == before, "bob's view of the share is unchanged")
        for peer in [bob, carol, eve] { try peer.stop() }
    }

    /// Alice shares beach.jpg with bob and carol (both read-write, their addresses in every
    /// record), and a fourth daemon, `newcomer`, is started in the same group.
    private static func beachSharedWithBobAndCarol(newcomer: String) throws -> (
        SharingPeers, SharingPeer, SharedPhoto
    ) {
        let peers = try SharingPeers()
        let other = try SharingPeer(newcomer)
        let everyone = peers.everyone + [other]
        for peer in everyone { peer.join(everyone) }
        return (peers, other, try peers.shareBeach(carolPermission: "read-write"))
    }
}
