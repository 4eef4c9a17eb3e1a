import ControlProtocol
import Foundation
import TestSupport
import Testing

/// Names (SPEC §15): a person names itself with `name set`; the name travels on its signed
/// device list, and the people it shares with see it, with the device's name, in `peers`,
/// `share show`, `rating list` and history.
@Suite(.serialized, .onOwnThreads) struct NameTests {
    /// Alice and Bob, named, with a share of Alice's that Bob takes part in read-write.
    struct Pair {
        let alice: SharingPeer
        let bob: SharingPeer
        let share: String
        let photo: String
        /// Both daemons run on this host: each device is named after it.
        let host: String

        init() throws {
            alice = try SharingPeer("alice")
            bob = try SharingPeer("bob")
            for peer in [alice, bob] { peer.join([alice, bob]) }
            host = try #require(try alice.json("id")["device_name"]?.stringValue)
            #expect(
                try alice.json("name", "set", "Alice") == [
                    "person_id": .string(alice.person), "person_name": "Alice",
                ])
            _ = try bob.json("name", "set", "Bob")
            photo = try alice.addPhoto("beach.jpg", bytes: randomBytes(3000))
            let created = try alice.json("share", "create", photo, "--title", "Holidays")
            share = try #require(created["share"]?.stringValue)
            _ = try alice.json("share", "invite", share, bob.person, "--permission", "read-write")
            _ = try bob.json("accept", try #require(created["url"]?.stringValue))
            try settleAddresses(of: share, among: [alice, bob])
        }

        func stop() throws {
            try alice.stop()
            try bob.stop()
        }
    }

    /// The `peers` entry of `other` as `peer` shows it.
    private func entry(of other: SharingPeer, at peer: SharingPeer) throws -> JSON? {
        try (peer.json("peers").arrayValue ?? []).first { $0["peer_id"]?.stringValue == other.id }
    }

    @Test func eachSideSeesTheOthersNamesInPeersShareShowRatingsAndHistory() throws {
        let pair = try Pair()
        let (alice, bob, host) = (pair.alice, pair.bob, pair.host)
        #expect(try alice.cli("name", "show").stdout == "person name  Alice\ndevice name  \(host)\n")
        #expect(try bob.json("id")["person_name"] == "Bob")

        // peers: each side's entry for the other names its person and device.
        for (peer, other, name) in [(alice, bob, "Bob"), (bob, alice, "Alice")] {
            try waitUntil("\(peer.name) knows \(other.name)'s name", timeout: .seconds(60)) {
                try entry(of: other, at: peer)?["person_name"] == .string(name)
            }
            let shown = try #require(try entry(of: other, at: peer))
            #expect(shown["device_name"] == .string(host) && shown["person_id"] == .string(other.person))
            #expect(try peer.cli("peers").stdout.contains("\(other.id.prefix(15))  \(name) (\(host))"))
        }

        // share show: the owner's names at Bob, the participant's at Alice, name before ID.
        let atBob = try bob.share(pair.share)
        #expect(atBob["owner_person_name"] == "Alice" && atBob["owner_device_name"] == .string(host))
        #expect(
            try bob.cli("share", "show", pair.share).stdout.contains(
                "owner       Alice (person \(alice.person), device \(alice.id.prefix(7)) \"\(host)\")"))
        let participant = try #require(try alice.share(pair.share)["participants"]?[0])
        #expect(participant["person_name"] == "Bob" && participant["device_name"] == .string(host))
        #expect(
            try alice.cli("share", "show", pair.share).stdout.contains(
                "\n  Bob (person \(bob.person), device \(bob.id.prefix(7)) \"\(host)\")  read-write  accepted"
            ))

        // rating list: who rated, on the other side once synced.
        _ = try bob.json("rate", pair.photo, "4")
        try bob.syncWait()
        try alice.syncWait()
        let rating = try #require(try alice.json("rating", "list", pair.photo)[0])
        #expect(rating["rater_id"] == .string(bob.id) && rating["rater_person_id"] == .string(bob.person))
        #expect(rating["rater_person_name"] == "Bob" && rating["rater_name"] == .string(host))
        #expect(try alice.cli("rating", "list", pair.photo).stdout.hasSuffix("  4      Bob (\(host))\n"))
        _ = try alice.json("rate", pair.photo, "5")
        try alice.syncWait()
        try bob.syncWait()
        try waitUntil("bob has alice's rating", timeout: .seconds(60)) {
            try (bob.json("rating", "list", pair.photo).arrayValue ?? []).contains {
                $0["value"] == 5 && $0["rater_person_name"] == "Alice"
            }
        }

        // history: a change synced from the other side names its device and person.
        for (peer, other, name) in [(alice, bob, "Bob"), (bob, alice, "Alice")] {
            let synced = try (peer.json("history").arrayValue ?? []).filter {
                $0["author"] == .string("sync:\(other.id)")
            }
            #expect(!synced.isEmpty, "\(peer.name) has no change synced from \(other.name)")
            for change in synced {
                #expect(change["person_name"] == .string(name) && change["device_name"] == .string(host))
            }
            let own = try #require(try peer.json("history").arrayValue?.first { $0["author"] == "local" })
            #expect(own["person_name"] == .string(peer === alice ? "Alice" : "Bob"))
        }

        // A new name reaches the other side.
        _ = try bob.json("name", "set", "Robert")
        try waitUntil("alice sees bob's new name", timeout: .seconds(60)) {
            try entry(of: bob, at: alice)?["person_name"] == "Robert"
        }
        #expect(try alice.share(pair.share)["participants"]?[0]?["person_name"] == "Robert")
        try pair.stop()
    }

    @Test func anEmptyOverlongOrUnprintableNameIsRefusedAndChangesNothing() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        _ = try daemon.json("name", "set", "Alice")
        let long = String(repeating: "a", count: 101)
        let refused: [(String, String)] = [
            ("", "a person name '' is empty: give a name of 1 to 100 bytes"),
            (long, "a person name '\(String(long.prefix(100)))…' is 101 bytes long: at most 100 bytes"),
            (
                "Al\u{1B}[2Jice",
                "a person name 'Al\\u{1b}[2Jice' holds a control or invisible character: use printable characters only"
            ),
        ]
        for (name, message) in refused {
            #expect(try daemon.refusal("name", "set", name) == ControlError("invalid_arguments", message))
        }
        let cli = try daemon.cli("name", "set", "")
        #expect(cli.status != 0 && cli.stderr.contains("is empty"))
        #expect(try daemon.json("id")["person_name"] == "Alice")
        // A device name follows the same rules.
        let me = try #require(try daemon.json("id")["peer_id"]?.stringValue)
        #expect(
            try daemon.refusal("device", "rename", me, "")
                == ControlError(
                    "invalid_arguments", "a device name '' is empty: give a name of 1 to 100 bytes"))
        try daemon.stop()
    }
}
