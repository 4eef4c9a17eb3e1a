import ControlProtocol
import Foundation
import TestSupport
import Testing

/// Replication between real daemons beyond tags: full-size photo data, and a participant
/// that was down catching up once it starts again.
@Suite(.onOwnThreads) struct SharingSyncTests {
    @Test func photoDataArrivesWithTheOriginalBytes() throws {
        let peers = try SharingPeers()
        let shared = try peers.shareBeach(size: 3_000_000)
        let city = randomBytes(700_000)
        let cityPhoto = try peers.alice.addPhoto("city.jpg", bytes: city)
        _ = try peers.alice.json("share", "add", cityPhoto, shared.share)
        try peers.settle()
        for peer in [peers.bob, peers.carol] {
            for (photo, bytes) in [(shared.photo, shared.bytes), (cityPhoto, city)] {
                let shown = try peer.json("photo", "show", photo)
                #expect(shown["pending"] == false, "\(peer.name)")
                #expect(shown["store"] == "shared" && shown["zone"] == .string(shared.share), "\(peer.name)")
                #expect(shown["size"] == .int(bytes.count) && shown["sha256"] == .string(sha256Hex(bytes)))
                let target = peer.directory.file("export-\(photo.prefix(8)).jpg")
                #expect(try peer.cli("photo", "export", photo, target).status == 0)
                #expect(try contents(of: target) == bytes, "\(peer.name): \(photo.prefix(8))")
            }
        }
        try peers.stop()
    }

    @Test func aRestartedParticipantCatchesUpWithWhatChangedWhileItWasDown() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach()
        try bob.stop()

        // While bob is down: a tag, a new name, a new photo in the share.
        _ = try alice.json("tag", "add", shared.photo, "night")
        _ = try alice.json("photo", "rename", shared.photo, "Beach at night")
        let city = randomBytes(50_000)
        let cityPhoto = try alice.addPhoto("city.jpg", bytes: city, tags: ["night"])
        _ = try alice.json("share", "add", cityPhoto, shared.share)
        try alice.syncWait(unreachable: [bob])
        try carol.syncWait()
        let expected = ["Beach at night": ["night", "summer"], "city.jpg": ["night"]]
        #expect(try carol.sees() == expected)

        // Started again on the same state, bob dials alice at the address he stored.
        try bob.start()
        try bob.syncWait()
        #expect(try bob.sees() == expected)
        let export = bob.directory.file("city-export.jpg")
        _ = try bob.json("photo", "export", cityPhoto, export)
        #expect(try contents(of: export) == city)
        // Bob knows alice, and carol, a fellow participant (the mesh).
        let known = try #require(try bob.json("peers").arrayValue)
        #expect(Set(known.compactMap { $0["peer_id"]?.stringValue }) == [alice.id, carol.id])
        let owner = try #require(known.first { $0["peer_id"]?.stringValue == alice.id })
        #expect(owner["connected"] == true && owner["address"] == .string(alice.address))
        #expect(owner["zones"] == [.string(shared.share)])
        let table = try bob.cli("peers").stdout.split(separator: "\n").map(String.init)
        #expect(table.count == 3 && table[0].hasPrefix("PEER "), "\(table)")
        let row = table.first { $0.hasPrefix(alice.id.prefix(15)) } ?? ""
        #expect(row.contains(" connected ") && (row.contains(" now ") || row.contains(" ago ")), "\(table)")
        #expect(row.hasSuffix(alice.address), "\(table)")

        // And what he does now reaches the others.
        _ = try bob.json("tag", "add", cityPhoto, "lights")
        try peers.settle()
        for peer in peers.everyone {
            #expect(try peer.sees()["city.jpg"] == ["lights", "night"], "\(peer.name)")
        }
        try peers.stop()
    }

    @Test func participantsRedialTheOwnerWhenItComesBackOnItsAddress() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach()
        let address = alice.address
        try alice.stop()

        // Local commands keep working while the owner is away.
        _ = try bob.json("tag", "add", shared.photo, "sunset")
        try waitUntil("bob to see alice offline", timeout: .seconds(30)) {
            try bob.json("peers").arrayValue?.first { $0["peer_id"]?.stringValue == alice.id }?["connected"]
                == false
        }
        try alice.start(sameAddress: true)
        #expect(alice.address == address)
        _ = try alice.json("tag", "add", shared.photo, "dawn")
        try peers.settle()
        for peer in peers.everyone {
            #expect(try peer.sees() == ["beach.jpg": ["dawn", "summer", "sunset"]], "\(peer.name)")
        }
        try peers.stop()
    }
}
