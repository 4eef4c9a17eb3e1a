import ControlProtocol
import Foundation
import TestSupport
import Testing

/// The end of a membership between real daemons: a stopped share or a removed participant
/// stops being replicated, the participant's copy is purged while it stays connected for
/// other shares, and the owner's `sync --wait` no longer waits on the zone that ended.
@Suite(.onOwnThreads) struct SharingLifecycleTests {
    @Test func afterAShareIsStoppedTheOwnersSyncWaitReturnsOnceItsParticipantJoinsAnotherShare() throws {
        let alice = try SharingPeer("alice")
        let bob = try SharingPeer("bob")
        for peer in [alice, bob] { peer.join([alice, bob]) }
        let first = try alice.addPhoto("first.jpg", bytes: randomBytes(2000))
        let one = try alice.json("share", "create", first, "--title", "One")
        let oneShare = try #require(one["share"]?.stringValue)
        _ = try alice.json("share", "invite", oneShare, bob.id)
        _ = try bob.json("accept", try #require(one["url"]?.stringValue))
        try bob.syncWait()
        try alice.syncWait()
        #expect(try bob.sees() == ["first.jpg": []])

        _ = try alice.json("share", "stop", oneShare)
        try bob.syncWait()
        try waitUntil("bob's copy of the stopped share to be purged", timeout: .seconds(30)) {
            try bob.liveShares() == [] && bob.json("photo", "list") == []
        }
        // The owner no longer lists the stopped share (the sample deletes it).
        #expect(try alice.json("share", "list") == [])

        let second = try alice.addPhoto("second.jpg", bytes: randomBytes(3000))
        let two = try alice.json("share", "create", second, "--title", "Two", "--public", "read-only")
        let twoShare = try #require(two["share"]?.stringValue)
        _ = try bob.json("accept", try #require(two["url"]?.stringValue))
        // The zone that ended is not waited on: this returned "peers not in sync" before.
        let synced = try alice.cli("sync", "--wait", "--timeout", "10")
        #expect(
            synced.status == 0 && synced.stdout == "in sync\n",
            "\(synced)\nalice's log:\n\(alice.log)\nbob's log:\n\(bob.log)")
        try bob.syncWait()
        #expect(try bob.sees() == ["second.jpg": []])
        let shares = try #require(try alice.json("share", "list").arrayValue)
        #expect(shares.map { $0["share"] } == [.string(twoShare)])

        // A share stopped with --purge is gone from the list too.
        _ = try alice.json("share", "stop", twoShare, "--purge")
        try waitUntil("bob's copy of the purged share to go", timeout: .seconds(30)) {
            try bob.liveShares() == []
        }
        #expect(try alice.json("share", "list") == [])
        #expect(
            try alice.refusal("share", "show", twoShare)
                == ControlError("not_found", "no share matches '\(twoShare)'"))
        try alice.syncWait()
        for peer in [alice, bob] { try peer.stop() }
    }

    @Test func aParticipantRemovedFromAShareWhileConnectedForItsOwnShareIsPurgedAndMayRejoin() throws {
        let alice = try SharingPeer("alice")
        let bob = try SharingPeer("bob")
        for peer in [alice, bob] { peer.join([alice, bob]) }
        // Each owns a share the other takes part in: one connection carries both zones.
        let beach = try alice.addPhoto("beach.jpg", bytes: randomBytes(4000), tags: ["summer"])
        let ours = try alice.json("share", "create", beach, "--title", "Alice's")
        let aliceShare = try #require(ours["share"]?.stringValue)
        let aliceURL = try #require(ours["url"]?.stringValue)
        _ = try alice.json("share", "invite", aliceShare, bob.id, "--permission", "read-write")
        _ = try bob.json("accept", aliceURL)
        let forest = try bob.addPhoto("forest.jpg", bytes: randomBytes(3000))
        let theirs = try bob.json("share", "create", forest, "--title", "Bob's")
        let bobShare = try #require(theirs["share"]?.stringValue)
        _ = try bob.json("share", "invite", bobShare, alice.id)
        _ = try alice.json("accept", try #require(theirs["url"]?.stringValue))
        for peer in [bob, alice, bob] { try peer.syncWait() }
        #expect(try bob.sees(share: aliceShare) == ["beach.jpg": ["summer"]])
        #expect(try alice.sees(share: bobShare) == ["forest.jpg": []])

        _ = try alice.json("share", "remove", aliceShare, bob.id)
        // Told on the live connection, bob purges at once (it never did before: the
        // membership check ran only while bob was not connected to alice).
        try waitUntil("bob's copy of alice's share to be purged", timeout: .seconds(10)) {
            try bob.liveShares().map { $0["share"] } == [.string(bobShare)]
                && bob.sees() == ["forest.jpg": []]
        }
        try bob.daemon.waitForLogLine("<6>purged this peer's copy of a share", containing: aliceShare)
        // Bob's own share goes on as before.
        _ = try bob.json("tag", "add", forest, "green")
        for peer in [bob, alice] { try peer.syncWait() }
        #expect(try alice.sees(share: bobShare) == ["forest.jpg": ["green"]])
        _ = try alice.json("tag", "add", beach, "later")
        for peer in [alice, bob] { try peer.syncWait() }
        #expect(try bob.sees() == ["forest.jpg": ["green"]])

        // Invited again, bob accepts (this failed with already_member) and gets the zone back.
        _ = try alice.json("share", "invite", aliceShare, bob.id)
        #expect(try bob.json("accept", aliceURL)["share"] == .string(aliceShare))
        #expect(try alice.participantStatus(bob, in: aliceShare) == "accepted")
        for peer in [bob, alice, bob] { try peer.syncWait() }
        #expect(try bob.sees(share: aliceShare) == ["beach.jpg": ["later", "summer"]])
        for peer in [alice, bob] { try peer.stop() }
    }
}
