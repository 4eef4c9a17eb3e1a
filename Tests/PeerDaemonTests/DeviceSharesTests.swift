import ControlProtocol
import Foundation
import Replication
import TestSupport
import Testing

/// A person's shares on all of its devices (issue 14, SPEC §12): the shares a person owns
/// reach its other devices with their photo data; a participant keeps syncing with any
/// device of the owner while another is stopped; any device of the owner administers the
/// share (invites a new person, who accepts through it).
@Suite(.onOwnThreads) struct DeviceSharesTests {
    @Test func theOwnersSecondDeviceHoldsItsSharesAndServesTheParticipantsWhileTheFirstIsStopped() throws {
        let alice = try SharingPeer("alice")
        let desktop = try SharingPeer("alice-desktop")
        let bob = try SharingPeer("bob")
        let carol = try SharingPeer("carol")
        let everyone = [alice, desktop, bob, carol]
        for peer in everyone { peer.join(everyone) }
        let bytes = randomBytes(100_000)
        let beach = try alice.addPhoto("beach.jpg", bytes: bytes, tags: ["summer"])
        let created = try alice.json("share", "create", beach, "--title", "Holidays")
        let share = try #require(created["share"]?.stringValue)
        let url = try #require(created["url"]?.stringValue)
        _ = try alice.json("share", "invite", share, bob.person, "--permission", "read-write")
        _ = try bob.json("accept", url)
        try waitUntil("bob to see the share") { (try? bob.sees(share: share)) == ["beach.jpg": ["summer"]] }

        // The second device joins: the share arrives with its photo data and its participant.
        let link = try #require(try alice.json("device", "link")["url"]?.stringValue)
        _ = try desktop.json("device", "join", link, "--name", "desktop")
        try waitUntil("the desktop to hold alice's share") {
            (try? desktop.sees(share: share)) == ["beach.jpg": ["summer"]]
                && (try? desktop.participantStatus(bob, in: share)) == "accepted"
        }
        try desktop.syncWait()
        #expect(try desktop.exported(beach) == bytes)
        let listed = try #require(try desktop.json("share", "list").arrayValue)
        #expect(listed.contains { $0["share"]?.stringValue == share && $0["role"] == "owner" }, "\(listed)")

        // Bob reaches the desktop too; with the laptop stopped they still exchange changes.
        try Self.wait(for: "bob to be connected to the desktop", showing: everyone) {
            try AddressMoveTests.entry(of: desktop, at: bob)?["connected"] == true
        }
        try alice.stop()
        _ = try bob.json("tag", "add", beach, "from-bob")
        _ = try desktop.json("tag", "add", beach, "from-desktop")
        let both = ["beach.jpg": ["from-bob", "from-desktop", "summer"]]
        for peer in [bob, desktop] {
            try waitUntil("\(peer.name) to see both changes with the laptop stopped") {
                try peer.sees(share: share) == both
            }
        }

        // The desktop invites carol, who accepts its URL while the laptop is still away.
        _ = try desktop.json("share", "invite", share, carol.person, "--permission", "read-only")
        let desktopURL = try #require(try desktop.share(share)["url"]?.stringValue)
        #expect(desktopURL.contains(desktop.id), "the URL names the device that made it: \(desktopURL)")
        _ = try carol.json("accept", desktopURL)
        try waitUntil("carol to see the share") { (try? carol.sees(share: share)) == both }
        let refused = try carol.refusal("tag", "add", beach, "from-carol")
        #expect(refused.message.contains("read-only"), "\(refused)")
        // Participants see the owner as a person with both its devices.
        let shown = try bob.share(share)
        #expect(
            Set(shown["owner_devices"]?.arrayValue?.compactMap(\.stringValue) ?? []) == [
                alice.id, desktop.id,
            ],
            "\(shown)")
        let text = try bob.cli("share", "show", share)
        #expect(
            text.stdout.contains("(devices \(alice.id.prefix(7))")
                || text.stdout.contains(", \(alice.id.prefix(7))"))

        // A photo added on the desktop meanwhile; the laptop comes back and catches up with
        // everything done while it was away, photo data included.
        let sunsetBytes = randomBytes(80_000)
        let sunset = try desktop.addPhoto("sunset.jpg", bytes: sunsetBytes)
        _ = try desktop.json("share", "add", sunset, share)
        try alice.start()
        var expected = both
        expected["sunset.jpg"] = []
        try Self.wait(for: "the laptop to catch up", showing: [alice, desktop, bob, carol]) {
            try alice.sees(share: share) == expected
                && alice.participantStatus(carol, in: share) == "accepted"
        }
        try alice.syncWait()
        #expect(try alice.exported(sunset) == sunsetBytes)
        for peer in [alice, desktop, bob, carol] { try peer.stop() }
    }
}

extension DeviceSharesTests {
    /// `waitUntil` for up to a minute (these tests run four daemons on a loaded machine),
    /// showing every daemon's log when time runs out.
    static func wait(for what: String, showing peers: [SharingPeer], _ condition: () throws -> Bool) throws {
        do {
            try waitUntil(what, timeout: .seconds(60), condition)
        } catch let error as HarnessError {
            let logs = peers.map { peer in
                let shares = (try? peer.json("share", "list").arrayValue ?? []) ?? []
                let views = shares.compactMap { $0["share"]?.stringValue }.map { share in
                    "\(share.prefix(8)): \((try? peer.sees(share: share)) ?? [:]), participants "
                        + "\((try? peer.share(share)["participants"]).map { "\($0)" } ?? "?"), membership "
                        + "\((try? peer.share(share)["membership"]).map { "\($0)" } ?? "?")"
                }
                return "--- \(peer.name) sees \(views)\n--- \(peer.name)'s log:\n\(peer.log)"
            }.joined(separator: "\n")
            throw HarnessError("\(error)\n\(logs)")
        }
    }

    /// Makes `device` (a fresh daemon) another device of `existing`'s person by a link.
    static func link(_ device: SharingPeer, to existing: SharingPeer) throws {
        let url = try #require(try existing.json("device", "link")["url"]?.stringValue)
        _ = try device.json("device", "join", url)
    }

    /// `alice` shares a new `beach.jpg` (tagged "summer") with `bob`'s person, read-write, and
    /// bob accepts: the share's ID and the photo's, once bob sees it.
    static func share(from alice: SharingPeer, with bob: SharingPeer) throws -> (share: String, photo: String)
    {
        let beach = try alice.addPhoto("beach.jpg", bytes: randomBytes(50_000), tags: ["summer"])
        let created = try alice.json("share", "create", beach, "--title", "Holidays")
        let share = try #require(created["share"]?.stringValue)
        _ = try alice.json("share", "invite", share, bob.person, "--permission", "read-write")
        _ = try bob.json("accept", try #require(created["url"]?.stringValue))
        try waitUntil("bob to see the share") { (try? bob.sees(share: share)) == ["beach.jpg": ["summer"]] }
        return (share, beach)
    }

    @Test func aParticipantsSecondDeviceTakesPartWithItsPermission() throws {
        let alice = try SharingPeer("alice")
        let bob = try SharingPeer("bob")
        let phone = try SharingPeer("bob-phone")
        let everyone = [alice, bob, phone]
        for peer in everyone { peer.join(everyone) }
        let (share, beach) = try Self.share(from: alice, with: bob)

        // Bob's phone joins Bob: the share he takes part in arrives, and the phone writes
        // to it with Bob's permission; alice takes the phone's change.
        let link = try #require(try bob.json("device", "link")["url"]?.stringValue)
        _ = try phone.json("device", "join", link, "--name", "phone")
        try Self.wait(for: "the phone to hold bob's share", showing: everyone) {
            (try? phone.sees(share: share)) == ["beach.jpg": ["summer"]]
        }
        let listed = try #require(try phone.json("share", "list").arrayValue)
        #expect(
            listed.contains { $0["share"]?.stringValue == share && $0["role"] == "participant" }, "\(listed)")
        _ = try phone.json("tag", "add", beach, "from-phone")
        for peer in everyone {
            try Self.wait(for: "\(peer.name) to see the phone's tag", showing: everyone) {
                (try? peer.sees(share: share)) == ["beach.jpg": ["from-phone", "summer"]]
            }
        }
        for peer in everyone { try peer.stop() }
    }

    @Test func aRemovedDeviceOfTheOwnerIsCutOffByTheParticipantsAndPurgesTheShares() throws {
        let alice = try SharingPeer("alice")
        let desktop = try SharingPeer("alice-desktop")
        let bob = try SharingPeer("bob")
        let everyone = [alice, desktop, bob]
        for peer in everyone { peer.join(everyone) }
        let (share, beach) = try Self.share(from: alice, with: bob)
        try Self.link(desktop, to: alice)
        try Self.wait(for: "bob to be connected to the desktop", showing: everyone) {
            (try? desktop.sees(share: share)) == ["beach.jpg": ["summer"]]
                && (try? AddressMoveTests.entry(of: desktop, at: bob))??["connected"] == true
        }

        // Removed while it is cut off from everyone (paused), the desktop goes on writing.
        _ = try desktop.json("pause")
        _ = try alice.json("device", "remove", String(desktop.id.prefix(7)))
        try Self.wait(for: "bob to forget the desktop, no longer one of alice's devices", showing: everyone) {
            try AddressMoveTests.entry(of: desktop, at: bob) == nil
        }
        _ = try desktop.json("tag", "add", beach, "late")
        _ = try alice.json("tag", "add", beach, "after")
        try bob.syncWait()
        _ = try desktop.json("resume")

        // At its next contact it purges everything of the person's, shares included.
        try Self.wait(for: "the desktop to purge its copy", showing: everyone) {
            (try? desktop.json("share", "list").arrayValue?.isEmpty) == true
                && (try? desktop.sees().isEmpty) == true
        }
        try alice.syncWait()
        try bob.syncWait()
        for peer in [alice, bob] {
            #expect(try peer.sees(share: share) == ["beach.jpg": ["after", "summer"]], "\(peer.name)")
            #expect(try AddressMoveTests.entry(of: desktop, at: peer)?["connected"] != true, "\(peer.name)")
        }
        for peer in everyone { try peer.stop() }
    }
}

extension DeviceSharesTests {
    /// Only another device of the person may tell a daemon which zones to hold: from anyone
    /// else (here a stranger on a guest connection) the zone list is ignored, and nothing
    /// is created.
    @Test func aZoneListFromADeviceThatIsNotThePersonsIsIgnored() throws {
        let alice = try SharingPeer("alice")
        let stranger = try Attacker()
        let stream = try stranger.connect(to: alice, guest: true)
        let zone = "0b7a3c1e-5d2f-4a6b-8c9d-0e1f2a3b4c5d"
        try stream.send(
            SiblingZonesMessage([
                .init(zone: zone, shared: false, owner: stranger.identity.peerID),
                .init(
                    zone: zone + "-x", shared: true, owner: stranger.identity.peerID, address: "127.0.0.1:1"),
            ]).frame())
        try waitUntil("alice to log the ignored zone list") {
            alice.log.contains("ignored a zone list from a device that is not one of this person's")
        }
        stream.connection.close()
        #expect(try alice.json("share", "list").arrayValue?.isEmpty == true)
        let status = try alice.json("status")
        #expect(!"\(status)".contains(zone), "\(status)")
        try alice.stop()
    }
}

extension DeviceSharesTests {
    /// The owner's second device changes a permission and removes a participant with the
    /// first stopped: the participant is held to it, then purges its copy; the first device
    /// agrees when it is back, and the share's signed log still matches its records.
    @Test func theOwnersSecondDeviceChangesAPermissionAndRemovesAParticipant() throws {
        let alice = try SharingPeer("alice")
        let desktop = try SharingPeer("alice-desktop")
        let bob = try SharingPeer("bob")
        let everyone = [alice, desktop, bob]
        for peer in everyone { peer.join(everyone) }
        let (share, beach) = try Self.share(from: alice, with: bob)
        try Self.link(desktop, to: alice)
        try Self.wait(
            for: "the desktop to hold the share and its log, and bob to reach the desktop", showing: everyone
        ) {
            (try? desktop.share(share)["membership"]?["matches_records"]) == true
                && (try? AddressMoveTests.entry(of: desktop, at: bob))??["connected"] == true
        }
        try alice.stop()

        _ = try desktop.json("share", "permission", share, bob.person, "read-only")
        try waitUntil("bob to be read-only") { try bob.share(share)["permission"] == "read-only" }
        let refused = try bob.refusal("tag", "add", beach, "from-bob")
        #expect(refused.message.contains("read-only"), "\(refused)")

        let removed = try desktop.json("share", "remove", share, String(bob.id.prefix(10)))
        #expect(removed["status"] == "removed", "\(removed)")
        // Once (a loaded full suite) not within 30 s: now up to a minute, and then the logs
        // and membership of the desktop and bob say why.
        try Self.wait(for: "bob's copy to be purged", showing: [desktop, bob]) {
            try bob.liveShares() == [] && bob.json("photo", "list") == []
        }

        try alice.start()
        try waitUntil("the laptop to agree that bob was removed") {
            try alice.participantStatus(bob, in: share) == "removed"
        }
        for peer in [alice, desktop] {
            try waitUntil("\(peer.name)'s log to match its records") {
                try peer.share(share)["membership"]?["matches_records"] == true
            }
        }
        for peer in everyone { try peer.stop() }
    }
}

extension DeviceSharesTests {
    /// A share made on the second device: it reaches the first, a person invited there
    /// accepts the second's URL, and every daemon comes to agree.
    @Test func aShareMadeOnTheSecondDeviceReachesTheFirstAndItsParticipant() throws {
        let alice = try SharingPeer("alice")
        let desktop = try SharingPeer("alice-desktop")
        let carol = try SharingPeer("carol")
        let everyone = [alice, desktop, carol]
        for peer in everyone { peer.join(everyone) }
        let forest = try alice.addPhoto("forest.jpg", bytes: randomBytes(30_000), tags: ["trees"])
        // Another photo with the same tag: sharing the forest copies the tag into the share.
        _ = try alice.addPhoto("park.jpg", bytes: randomBytes(3_000), tags: ["trees"])
        try Self.link(desktop, to: alice)
        try waitUntil("the desktop to hold the photos") {
            try desktop.sees() == ["forest.jpg": ["trees"], "park.jpg": ["trees"]]
        }

        let created = try desktop.json("share", "create", forest, "--title", "Forest")
        let share = try #require(created["share"]?.stringValue)
        _ = try desktop.json("share", "invite", share, carol.person)
        _ = try carol.json("accept", try #require(created["url"]?.stringValue))
        for peer in everyone {
            try waitUntil("\(peer.name) to hold the share") {
                (try? peer.sees(share: share)) == ["forest.jpg": ["trees"]]
            }
        }
        for peer in everyone + everyone { try peer.syncWait() }
        for peer in [alice, desktop] {
            #expect(try peer.sees() == ["forest.jpg": ["trees"], "park.jpg": ["trees"]], "\(peer.name)")
        }
        #expect(try alice.participantStatus(carol, in: share) == "accepted")
        #expect(try alice.share(share)["role"] == "owner")

        // The first device stops the share: carol's copy goes, the photo returns to the
        // library on both devices, its tag with it.
        _ = try alice.json("share", "stop", share)
        try waitUntil("carol's copy to be purged") { try carol.sees().isEmpty }
        for peer in [alice, desktop] {
            try waitUntil("\(peer.name) to hold the photo in its library again") {
                try (peer.json("photo", "list").arrayValue ?? []).allSatisfy { $0["zone"] == "default" }
                    && peer.sees() == ["forest.jpg": ["trees"], "park.jpg": ["trees"]]
            }
        }
        for peer in everyone { try peer.stop() }
    }
}

extension DeviceSharesTests {
    /// The first `share show` (or `share list`) of a share on the owner's second device makes
    /// that device's own URL token: the share's log must learn it, as it does when a share is
    /// created. It did not, and every later `share show` there reported a log that no longer
    /// matched the records (until some other change to the share).
    @Test func theSecondDevicesOwnURLTokenReachesTheShareLog() throws {
        let alice = try SharingPeer("alice")
        let desktop = try SharingPeer("alice-desktop")
        let everyone = [alice, desktop]
        for peer in everyone { peer.join(everyone) }
        let beach = try alice.addPhoto("beach.jpg", bytes: randomBytes(3_000))
        let share = try #require(
            try alice.json("share", "create", beach, "--title", "Beach")["share"]?.stringValue)
        try Self.link(desktop, to: alice)
        // Everything settled first, without a look at the share on the desktop (which would
        // make its token while replication still touches the share).
        try waitUntil("the desktop to hold the share") {
            (try? desktop.sees(share: share)) == ["beach.jpg": []]
        }
        for peer in everyone + everyone { try peer.syncWait() }
        let url = try #require(try desktop.share(share)["url"]?.stringValue)
        #expect(url != (try alice.share(share)["url"]?.stringValue), "each device makes its own URL")
        try Self.wait(for: "the desktop's token to be in the log on both devices", showing: everyone) {
            try everyone.allSatisfy { try $0.share(share)["membership"]?["matches_records"] == true }
                && alice.share(share)["membership"] == desktop.share(share)["membership"]
        }
        for peer in everyone { try peer.stop() }
    }
}
