import ControlProtocol
import Foundation
import Store
import TestSupport
import Testing

/// The sample's "Try out the Sharing Flow" with three real daemons on loopback: alice owns
/// the share, bob takes part read-write, carol read-only. One test per step of the flow, so
/// that one failing does not hide the others; a later step starts from `SampleFlow`, which
/// sets up what the earlier steps leave.
@Suite(.onOwnThreads) struct SharingFlowTests {
    @Test func invitedPeersJoinAPrivateShareByItsURLAndAPeerNotYetInvitedIsRefused() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        // Owner: a photo, shared privately; a participant without an invitation is refused.
        let beach = try alice.addPhoto("beach.jpg", bytes: randomBytes(5000), tags: ["summer"])
        let created = try alice.json("share", "create", beach, "--title", "Holidays")
        let share = try #require(created["share"]?.stringValue)
        let url = try #require(created["url"]?.stringValue)
        #expect(url.hasPrefix("peershare://\(alice.address)/\(share)/owner=\(alice.id)/invite="))
        #expect(try alice.share(share)["url"]?.stringValue == url)
        #expect(
            try bob.refusal("accept", url)
                == ControlError(
                    "join_requested",
                    "the owner has your request to join: this share is private and you are not invited yet: your "
                        + "request to join went to the owner; accept the URL again once they approve it (or invite "
                        + "your person ID (\(bob.person)))"
                ))

        // Invitations (bob by his person ID, carol by her device's ID), then acceptance by URL.
        let invited = try alice.json("share", "invite", share, bob.person, "--permission", "read-write")
        #expect(
            invited
                == [
                    "id": .string(bob.person), "share": .string(share), "peer_id": .string(bob.person),
                    "person_id": .null, "permission": "read-write", "status": "pending",
                ])
        _ = try alice.json("share", "invite", String(share.prefix(8)), carol.id)
        #expect(
            try bob.cli("accept", url).stdout == "joined \"Holidays\" (read-write), share \(share)\n")
        #expect(
            try carol.json("accept", url) == [
                "id": .string(share), "share": .string(share), "title": "Holidays", "permission": "read-only",
                "via": .null,
            ])
        try peers.settleAddresses(of: share)
        for peer in peers.everyone {
            #expect(try peer.sees() == ["beach.jpg": ["summer"]], "\(peer.name)")
        }
        let participants = try alice.share(share)["participants"]
        // Every daemon here runs on one host: each device is named after it.
        let host = try #require(try bob.json("id")["device_name"])
        #expect(
            participants
                == .array(
                    [
                        [
                            "id": .string(bob.id), "peer_id": .string(bob.id),
                            "person_id": .string(bob.person),
                            "person_name": .null, "device_name": .null,
                            "devices": [.string(bob.id)], "permission": "read-write", "status": "accepted",
                            "address": .string(bob.address), "person_name": .null, "device_name": host,
                        ],
                        [
                            "id": .string(carol.id), "peer_id": .string(carol.id),
                            "person_id": .string(carol.person),
                            "person_name": .null, "device_name": .null,
                            "devices": [.string(carol.id)], "permission": "read-only", "status": "accepted",
                            "address": .string(carol.address), "person_name": .null, "device_name": host,
                        ],
                    ].sorted { $0["peer_id"]!.stringValue! < $1["peer_id"]!.stringValue! }))
        let bobsShares = try bob.json("share", "list")
        #expect(bobsShares[0]?["role"] == "participant" && bobsShares[0]?["permission"] == "read-write")
        #expect(bobsShares[0]?["store"] == "shared" && bobsShares[0]?["url"] == nil)
        // Persons replicate with the share: the owner's, and each participant's.
        #expect(bobsShares[0]?["owner_person_id"] == .string(alice.person))
        #expect(try bob.share(share)["participants"] == participants)
        #expect(try carol.json("share", "list")[0]?["permission"] == "read-only")
        try peers.stop()
    }

    @Test func tagsTheOwnerAndAParticipantAddReachEveryone() throws {
        let flow = try SampleFlow()
        _ = try flow.alice.json("tag", "add", flow.beach, "sea")
        _ = try flow.bob.json("tag", "add", flow.beach, "sunset")
        try flow.peers.settle()
        for peer in flow.peers.everyone {
            #expect(try peer.sees() == ["beach.jpg": ["sea", "summer", "sunset"]], "\(peer.name)")
        }
        try flow.peers.stop()
    }

    @Test func aSecondPhotoAddedToTheShareHasItsTagMergedWithTheZonesTagOfThatName() throws {
        let flow = try SampleFlow()
        try flow.tagBothSides()
        let (alice, share) = (flow.alice, flow.share)
        // A second photo into the existing share: its "summer" joins the zone's "summer".
        let cityPhoto = try alice.addPhoto("city.jpg", bytes: flow.city, tags: ["summer", "night"])
        #expect(
            try alice.cli("share", "add", cityPhoto, share).stdout
                == "added \(cityPhoto.prefix(8)) to share \(share.prefix(8))\n")
        try flow.peers.settle()
        let expected = ["beach.jpg": ["sea", "summer", "sunset"], "city.jpg": ["night", "summer"]]
        for peer in flow.peers.everyone {
            func summers() throws -> [JSON] {
                try (peer.json("tag", "list", "--share", share).arrayValue ?? []).filter {
                    $0["name"] == "summer"
                }
            }
            // A loaded CI run once saw carol without the second photo's "summer" right after
            // settling: wait up to a minute for the outcome (a lasting difference still
            // fails, with the peer's log), then check it.
            try? waitUntil("\(peer.name) to see the second photo with one summer", timeout: .seconds(60)) {
                try peer.sees() == expected && summers().first?["photo_count"] == 2
            }
            // Twice (carol, under a loaded full suite) the difference lasted: the next time says
            // what the owner did and which zones each side's connections replicate.
            let diagnosis = {
                "\(peer.name): \(peer.log)\nalice: \(alice.log)\npeers at \(peer.name) (zones, in_sync): "
                    + "\((try? peer.json("peers")) ?? .null)\nat alice: \((try? alice.json("peers")) ?? .null)"
            }
            #expect(try peer.sees() == expected, "\(diagnosis())")
            let found = try summers()
            #expect(found.count == 1 && found.first?["photo_count"] == 2, "\(found) \(diagnosis())")
        }
        try flow.peers.stop()
    }

    @Test func aReadOnlyParticipantMayWriteOnlyWhileTheOwnerHasMadeItReadWrite() throws {
        let flow = try SampleFlow()
        let cityPhoto = try flow.addCity()
        let (alice, carol, share, peers) = (flow.alice, flow.carol, flow.share, flow.peers)
        // Managing participants: carol may write once made read-write, and no longer once
        // made read-only again.
        let readOnly = "you have read-only access to this share"
        #expect(
            try carol.refusal("tag", "add", cityPhoto, "lights")
                == ControlError("permission_denied", "cannot tag this photo: \(readOnly)"))
        _ = try alice.json("share", "permission", share, String(carol.id.prefix(7)), "read-write")
        try peers.settle()
        #expect(try carol.json("share", "show", share)["permission"] == "read-write")
        _ = try carol.json("tag", "add", cityPhoto, "lights")
        try peers.settle()
        for peer in peers.everyone {
            #expect(try peer.sees()["city.jpg"] == ["lights", "night", "summer"], "\(peer.name)")
        }
        _ = try alice.json("share", "permission", share, carol.id, "read-only")
        try peers.settle()
        #expect(
            try carol.refusal("photo", "rename", cityPhoto, "City")
                == ControlError("permission_denied", "cannot rename this photo: \(readOnly)"))
        try peers.stop()
    }

    @Test func aParticipantThatLeavesLosesItsCopyAndTheOwnerSeesItAsRemoved() throws {
        let flow = try SampleFlow()
        try flow.tagBothSides()
        let (alice, bob, carol, share) = (flow.alice, flow.bob, flow.carol, flow.share)
        // Bob leaves ("Remove Me"): his copy goes, alice sees him as removed.
        #expect(try bob.cli("share", "leave", share).stdout == "left share \(share.prefix(8))\n")
        #expect(try bob.json("photo", "list") == [] && bob.liveShares() == [])
        try waitUntil("alice to see bob as removed", timeout: .seconds(30)) {
            try alice.participantStatus(bob, in: share) == "removed"
        }
        _ = try alice.json("tag", "add", flow.beach, "dawn")
        try flow.peers.settle()
        #expect(try bob.sees() == [:])
        #expect(try carol.sees()["beach.jpg"] == ["dawn", "sea", "summer", "sunset"])
        try flow.peers.stop()
    }

    @Test func stoppingPurgesTheParticipantsCopiesAndReturnsThePhotosToTheOwnersLibrary() throws {
        let flow = try SampleFlow()
        try flow.tagBothSides()
        let cityPhoto = try flow.addCity()
        let (alice, carol, share) = (flow.alice, flow.carol, flow.share)
        // The tags the earlier steps leave: carol's "lights" (while read-write) and alice's "dawn".
        _ = try alice.json("tag", "add", cityPhoto, "lights")
        _ = try alice.json("tag", "add", flow.beach, "dawn")
        try flow.peers.settle()
        // Stopping: carol's copy is purged; alice's photos go back to her default zone.
        #expect(try alice.cli("share", "stop", share).stdout == "stopped sharing \(share.prefix(8))\n")
        try waitUntil("carol's copy to be purged", timeout: .seconds(30)) {
            try carol.json("photo", "list") == [] && carol.liveShares() == []
        }
        #expect(
            try alice.sees(share: "default")
                == [
                    "beach.jpg": ["dawn", "sea", "summer", "sunset"],
                    "city.jpg": ["lights", "night", "summer"],
                ])
        // The owner no longer lists the stopped share (the sample deletes it).
        #expect(try alice.json("share", "list") == [])
        try exportMatches(alice, cityPhoto, flow.city)
        try flow.peers.stop()
    }

    @Test func stoppingWithPurgeDeletesTheOwnersPhotosAndEveryCopy() throws {
        let peers = try SharingPeers()
        let shared = try peers.shareBeach()
        let kept = try peers.alice.addPhoto("kept.jpg", bytes: randomBytes(100), tags: ["summer"])
        _ = try peers.alice.json("share", "stop", shared.share, "--purge")
        for participant in [peers.bob, peers.carol] {
            try waitUntil("\(participant.name)'s copy to be purged", timeout: .seconds(30)) {
                try participant.json("photo", "list") == [] && participant.liveShares() == []
            }
        }
        let photos = try peers.alice.json("photo", "list")
        #expect(photos.arrayValue?.map { $0["id"] } == [.string(kept)])
        #expect(
            try peers.alice.refusal("photo", "show", shared.photo)
                == ControlError("not_found", "no photo matches '\(shared.photo)'"))
        // The purged photo's data is gone from every store.
        for peer in peers.everyone {
            for store in [StoreKind.private, .shared] {
                #expect(
                    !FileManager.default.fileExists(
                        atPath: peer.daemon.blobPath(sha256Hex(shared.bytes), store: store)),
                    "\(peer.name) \(store)")
            }
        }
        // The URL of a stopped share lets nobody in.
        #expect(
            try peers.bob.refusal("accept", shared.url)
                == ControlError(
                    "permission_denied", "the owner refused: the owner has stopped sharing this share"))
        try peers.stop()
    }

    private func exportMatches(_ peer: SharingPeer, _ photo: String, _ bytes: [UInt8]) throws {
        let target = peer.directory.file("export-\(photo.prefix(8))")
        _ = try peer.json("photo", "export", photo, target)
        #expect(try contents(of: target) == bytes, "\(peer.name)'s export of \(photo.prefix(8))")
    }
}
