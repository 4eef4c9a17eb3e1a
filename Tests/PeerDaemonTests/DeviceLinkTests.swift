import ControlProtocol
import Foundation
import TestSupport
import Testing

/// Linking a device (issue 14, SPEC §12): a one-time link makes a fresh daemon a device of
/// the person; a link reused, expired, tampered with, or used on a daemon with a library of
/// its own is refused with its own message and changes nothing on either side.
@Suite(.onOwnThreads) struct DeviceLinkTests {
    @Test func aFreshDaemonJoinsThePersonOfALinkAndBothListTheTwoDevices() throws {
        let alice = try SharingPeer("alice")
        let second = try SharingPeer("alice-desktop")
        for peer in [alice, second] { peer.join([alice, second]) }
        let link = try alice.json("device", "link")
        let url = try #require(link["url"]?.stringValue)
        #expect(url.hasPrefix("peershare://\(alice.address)/link/\(alice.id)/"), "\(url)")
        #expect(!url.contains("&") && !url.contains("?"), "survives a shell unquoted: \(url)")
        #expect(link["expires_at"]?.stringValue != nil)

        let joined = try second.json("device", "join", url, "--name", "desktop")
        #expect(joined["person_id"]?.stringValue == alice.person)
        #expect(try second.json("id")["person_id"]?.stringValue == alice.person)
        for peer in [alice, second] {
            let devices = try #require(try peer.json("device", "list").arrayValue)
            #expect(
                Set(devices.compactMap { $0["device_id"]?.stringValue }) == [alice.id, second.id],
                "\(peer.name)")
            #expect(devices.first { $0["device_id"]?.stringValue == second.id }?["name"] == "desktop")
            #expect(
                devices.filter { $0["this_device"] == true }.map { $0["device_id"]?.stringValue } == [peer.id]
            )
        }
        let renamed = try alice.json("device", "rename", String(second.id.prefix(7)), "study")
        #expect(renamed["name"] == "study")
        #expect(
            try alice.json("device", "list").arrayValue?.first { $0["device_id"]?.stringValue == second.id }?[
                "name"]
                == "study")
        let text = try alice.cli("device", "list")
        #expect(text.status == 0 && text.stdout.contains("study"), "\(text)")
        try alice.stop()
        try second.stop()
    }

    @Test func theSecondDeviceGetsThePersonsLibraryWithItsDataAndEditsGoBothWays() throws {
        let alice = try SharingPeer("alice")
        let desktop = try SharingPeer("alice-desktop")
        for peer in [alice, desktop] { peer.join([alice, desktop]) }
        let bytes = randomBytes(200_000)
        let beach = try alice.addPhoto("beach.jpg", bytes: bytes, tags: ["summer"])
        let url = try #require(try alice.json("device", "link")["url"]?.stringValue)
        _ = try desktop.json("device", "join", url, "--name", "desktop")

        // Alice's library arrives, photo data included.
        try waitUntil("the desktop to see alice's photo") { try desktop.sees() == ["beach.jpg": ["summer"]] }
        try desktop.syncWait()
        #expect(try desktop.exported(beach) == bytes)
        #expect(try AddressMoveTests.entry(of: alice, at: desktop)?["connected"] == true)

        // A photo added on the desktop reaches the laptop; tags made on both at once converge.
        let desk = try desktop.addPhoto("desk.jpg", bytes: randomBytes(5_000), tags: ["home"])
        _ = try alice.json("tag", "add", beach, "from-laptop")
        _ = try desktop.json("tag", "add", beach, "from-desktop")
        let expected = ["beach.jpg": ["from-desktop", "from-laptop", "summer"], "desk.jpg": ["home"]]
        for peer in [alice, desktop] {
            try waitUntil("\(peer.name) to see both devices' changes") { try peer.sees() == expected }
        }
        #expect(try alice.exported(desk).count == 5_000)

        // History names the device each change came from, and leaves one out by its name.
        let history = try #require(try alice.json("history", "--store", "private").arrayValue)
        #expect(
            history.contains {
                $0["device"] == "desktop" && $0["author"]?.stringValue == "sync:\(desktop.id)"
            })
        #expect(history.contains { $0["author"] == "local" && $0["device"]?.stringValue != nil })
        let withoutDesktop = try #require(
            try alice.json("history", "--store", "private", "--exclude-author", "desktop").arrayValue)
        #expect(!withoutDesktop.isEmpty && !withoutDesktop.contains { $0["device"] == "desktop" })
        // A name that is no device's is a client's (--author): none wrote here, nothing is left out.
        let noClient = try alice.json("history", "--store", "private", "--exclude-author", "attic")
        #expect(noClient.arrayValue?.count == history.count)

        // The same tag created on both while apart: one tag everywhere, the smallest UUID.
        _ = try alice.json("pause")
        _ = try desktop.json("pause")
        _ = try alice.json("tag", "add", desk, "twice")
        _ = try desktop.json("tag", "add", beach, "twice")
        _ = try alice.json("resume")
        _ = try desktop.json("resume")
        try alice.syncWait()
        try desktop.syncWait()
        func twice(_ peer: SharingPeer) throws -> [String] {
            (try peer.json("tag", "list").arrayValue ?? []).filter { $0["name"] == "twice" }
                .compactMap { $0["id"]?.stringValue ?? $0["tag"]?.stringValue }
        }
        try waitUntil("one tag 'twice' on both, the same") {
            let (a, d) = (try twice(alice), try twice(desktop))
            return a.count == 1 && a == d
        }
        for peer in [alice, desktop] {
            #expect(try peer.sees()["desk.jpg"]?.contains("twice") == true, "\(peer.name)")
            #expect(try peer.sees()["beach.jpg"]?.contains("twice") == true, "\(peer.name)")
        }
        try alice.stop()
        try desktop.stop()
    }

    @Test func aThirdDeviceIsKnownToTheSecondAtOnceAndTheyReplicateDirectly() throws {
        let laptop = try SharingPeer("laptop")
        let desktop = try SharingPeer("desktop")
        let server = try SharingPeer("server")
        let everyone = [laptop, desktop, server]
        for peer in everyone { peer.join(everyone) }
        _ = try desktop.json(
            "device", "join", try #require(try laptop.json("device", "link")["url"]?.stringValue))
        try waitUntil("the desktop to be connected to the laptop") {
            try AddressMoveTests.entry(of: laptop, at: desktop)?["connected"] == true
        }
        _ = try server.json(
            "device", "join", try #require(try laptop.json("device", "link")["url"]?.stringValue))
        // The laptop shows the desktop its new list on their open connection: the desktop
        // takes the server for a device of its own and reaches it (the laptop told it where).
        try waitUntil("the desktop to list three devices") {
            try desktop.json("device", "list").arrayValue?.count == 3
        }
        try laptop.stop()
        _ = try server.addPhoto("from-server.jpg", bytes: randomBytes(3_000), tags: ["rack"])
        do {
            // Generous: on a loaded machine the server may have been refused by the desktop (no
            // member yet) and backed off before the desktop took the new list.
            try waitUntil("the desktop to see the server's photo, the laptop stopped", timeout: .seconds(60))
            {
                try desktop.sees() == ["from-server.jpg": ["rack"]]
            }
        } catch {
            throw HarnessError("\(error)\n--- desktop:\n\(desktop.log)\n--- server:\n\(server.log)")
        }
        try desktop.stop()
        try server.stop()
    }

    @Test func aRemovedDeviceGetsNothingMoreItsLaterChangesAreRefusedAndItsCopyIsPurged() throws {
        let laptop = try SharingPeer("laptop")
        let desktop = try SharingPeer("desktop")
        let server = try SharingPeer("server")
        let everyone = [laptop, desktop, server]
        for peer in everyone { peer.join(everyone) }
        _ = try laptop.addPhoto("before.jpg", bytes: randomBytes(2_000), tags: ["old"])
        for peer in [desktop, server] {
            _ = try peer.json(
                "device", "join", try #require(try laptop.json("device", "link")["url"]?.stringValue))
        }
        for peer in [desktop, server] {
            try waitUntil("\(peer.name) to hold the library and know three devices") {
                try peer.sees() == ["before.jpg": ["old"]]
                    && peer.json("device", "list").arrayValue?.count == 3
            }
        }

        let itself = try laptop.refusal("device", "remove", laptop.id)
        #expect(itself.code.rawValue == "invalid", "\(itself)")
        #expect(itself.message == "a device cannot remove itself: remove it from another device of yours")

        // The desktop is cut off (paused), then removed; it goes on writing meanwhile.
        _ = try desktop.json("pause")
        let removed = try laptop.json("device", "remove", String(desktop.id.prefix(7)))
        #expect(removed["device_id"]?.stringValue == desktop.id)
        try waitUntil("the server to know the desktop was removed") {
            try server.json("device", "list").arrayValue?.count == 2
        }
        _ = try laptop.addPhoto("after.jpg", bytes: randomBytes(2_000))
        _ = try desktop.addPhoto("late.jpg", bytes: randomBytes(2_000))
        _ = try desktop.json("resume")

        // At its next contact the desktop learns it, purges its copy, and is a person of its own.
        try waitUntil("the desktop to purge its copy") {
            try desktop.sees().isEmpty && desktop.json("id")["person_id"]?.stringValue != laptop.person
        }
        #expect(desktop.log.contains("this device was removed from person"))
        try laptop.syncWait()
        try server.syncWait()
        for peer in [laptop, server] {
            #expect(
                try peer.sees() == ["after.jpg": [], "before.jpg": ["old"]],
                "\(peer.name) got nothing of the desktop's")
            #expect(try AddressMoveTests.entry(of: desktop, at: peer)?["connected"] != true, "\(peer.name)")
        }
        for peer in everyone { try peer.stop() }
    }

    @Test func withMergeADaemonsOwnPhotosJoinThePersonsLibraryAndItsTagsAreDeduplicated() throws {
        let laptop = try SharingPeer("laptop")
        let desktop = try SharingPeer("desktop")
        for peer in [laptop, desktop] { peer.join([laptop, desktop]) }
        _ = try laptop.addPhoto("beach.jpg", bytes: randomBytes(1_000), tags: ["sunset"])
        _ = try desktop.addPhoto("desk.jpg", bytes: randomBytes(1_000), tags: ["sunset"])
        let url = try #require(try laptop.json("device", "link")["url"]?.stringValue)
        let refused = try desktop.refusal("device", "join", url)
        #expect(refused.code.rawValue == "not_fresh", "\(refused)")
        #expect(refused.message.hasSuffix("join with --merge to merge its photos into the person's library"))

        _ = try desktop.json("device", "join", url, "--merge")
        let expected = ["beach.jpg": ["sunset"], "desk.jpg": ["sunset"]]
        for peer in [laptop, desktop] {
            try waitUntil("\(peer.name) to hold both libraries, merged") { try peer.sees() == expected }
        }
        try laptop.syncWait()
        try desktop.syncWait()
        func sunset(_ peer: SharingPeer) throws -> [String] {
            (try peer.json("tag", "list").arrayValue ?? []).filter { $0["name"] == "sunset" }
                .compactMap { $0["id"]?.stringValue ?? $0["tag"]?.stringValue }
        }
        try waitUntil("one tag 'sunset', the same on both") {
            let (a, b) = (try sunset(laptop), try sunset(desktop))
            return a.count == 1 && a == b
        }

        // A daemon with a share of its own is refused, --merge or not.
        let sharer = try SharingPeer("sharer")
        let photo = try sharer.addPhoto("shared.jpg", bytes: randomBytes(500))
        _ = try sharer.json("share", "create", photo)
        let withShare = try sharer.refusal(
            "device", "join", try #require(try laptop.json("device", "link")["url"]?.stringValue), "--merge")
        #expect(withShare.code.rawValue == "not_fresh", "\(withShare)")
        #expect(
            withShare.message.contains(
                "a daemon with shares cannot join a person's devices, even with --merge"))
        for peer in [laptop, desktop, sharer] { try peer.stop() }
    }

    /// The demo's story: a tag on a photo deleted since, photos shared and tagged by someone
    /// else, the share stopped (its photos and tags come back to the owner's library, some
    /// objects written by others): the second device takes all of it from the first as the
    /// first holds it, and nothing is refused or undone on either.
    @Test func aLibraryWithAStoppedSharesHistoryReachesTheSecondDeviceWithNothingUndone() throws {
        let alice = try SharingPeer("alice")
        let bob = try SharingPeer("bob")
        let desktop = try SharingPeer("alice-desktop")
        for peer in [alice, bob, desktop] { peer.join([alice, bob, desktop]) }
        let beach = try alice.addPhoto("beach.jpg", bytes: randomBytes(3_000), tags: ["summer", "sea"])
        let city = try alice.addPhoto("city.jpg", bytes: randomBytes(2_000), tags: ["night"])
        let forest = try alice.addPhoto("forest.jpg", bytes: randomBytes(1_000), tags: ["summer"])
        _ = try alice.json("tag", "add", city, "summer")
        _ = try alice.json("photo", "delete", city)
        let created = try alice.json("share", "create", beach)
        let share = try #require(created["share"]?.stringValue)
        _ = try alice.json("share", "invite", share, bob.person, "--permission", "read-write")
        _ = try bob.json("accept", try #require(created["url"]?.stringValue))
        try waitUntil("bob to see the beach") { try bob.sees(share: share)["beach.jpg"] != nil }
        _ = try bob.json("tag", "add", beach, "sunset")
        _ = try alice.json("share", "add", forest, share)
        try bob.syncWait()
        try alice.syncWait()
        _ = try alice.json("share", "stop", share)
        let expected = ["beach.jpg": ["sea", "summer", "sunset"], "forest.jpg": ["summer"]]
        try waitUntil("alice's library to hold both photos again") { try alice.sees() == expected }

        _ = try desktop.json(
            "device", "join", try #require(try alice.json("device", "link")["url"]?.stringValue))
        try waitUntil("the desktop to hold alice's library") { try desktop.sees() == expected }
        try alice.syncWait()
        try desktop.syncWait()
        #expect(try alice.sees() == expected, "nothing undone on alice's side")
        for peer in [alice, desktop] {
            #expect(!peer.log.contains("refused from the peer"), "\(peer.name) refused nothing")
        }
        for peer in [alice, bob, desktop] { try peer.stop() }
    }

    @Test func everyBadLinkIsRefusedWithItsOwnMessageAndChangesNothing() throws {
        let alice = try SharingPeer("alice", config: "device_link_validity = 1s\n")
        let fresh = try SharingPeer("fresh")
        let used = try SharingPeer("used")
        let holder = try SharingPeer("holder")
        let everyone = [alice, fresh, used, holder]
        for peer in everyone { peer.join(everyone) }
        let url = try #require(try alice.json("device", "link")["url"]?.stringValue)
        _ = try used.json("device", "join", url)

        // Used once already.
        let again = try fresh.refusal("device", "join", url)
        #expect(again.code.rawValue == "link_used", "\(again)")
        #expect(again.message.hasPrefix("this link was already used (at "), "\(again)")
        // A token changed by one character.
        let link = try #require(try alice.json("device", "link")["url"]?.stringValue)
        let last = link.last == "0" ? "1" : "0"
        let tampered = try fresh.refusal("device", "join", String(link.dropLast()) + last)
        #expect(tampered.code.rawValue == "link_unknown", "\(tampered)")
        // Another device's ID: the TLS pin does not match who answers.
        let otherDevice = link.replacingOccurrences(of: alice.id, with: fresh.id)
        let wrong = try holder.refusal("device", "join", otherDevice)
        #expect(wrong.code.rawValue == "wrong_device", "\(wrong)")
        // Not a link at all.
        let malformed = try fresh.refusal("device", "join", "peershare://\(alice.address)/link/\(alice.id)")
        #expect(malformed.code.rawValue == "invalid_link", "\(malformed)")
        // A daemon with a library of its own.
        _ = try holder.addPhoto("mine.jpg", bytes: randomBytes(64))
        let notFresh = try holder.refusal("device", "join", link)
        #expect(notFresh.code.rawValue == "not_fresh", "\(notFresh)")
        #expect(notFresh.message.contains("(1 photos, 0 shares)"), "\(notFresh)")
        // Expired (this daemon's links last a second).
        let expiring = try alice.json("device", "link")
        let deadline = try #require(
            (expiring["expires_at"]?.stringValue).flatMap { try? Date($0, strategy: .iso8601) })
        try waitUntil("the link to expire") { Date() > deadline.addingTimeInterval(0.05) }
        let expired = try fresh.refusal("device", "join", try #require(expiring["url"]?.stringValue))
        #expect(expired.code.rawValue == "link_expired", "\(expired)")

        // Nothing changed: alice's person has her and the one device that joined; the others
        // keep their own persons.
        let devices = try #require(try alice.json("device", "list").arrayValue)
        #expect(Set(devices.compactMap { $0["device_id"]?.stringValue }) == [alice.id, used.id])
        for peer in [fresh, holder] {
            #expect(try peer.json("id")["person_id"]?.stringValue == peer.person, "\(peer.name)")
            #expect(try peer.json("device", "list").arrayValue?.count == 1, "\(peer.name)")
        }
        for peer in everyone { try peer.stop() }
    }
}
