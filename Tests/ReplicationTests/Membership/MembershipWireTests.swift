import Foundation
import Store
import Support
import TestSupport
import Testing

@testable import Replication

/// The membership log between real libraries: the owner issues operations by reconciling
/// its records, a participant checks what arrives and stores only what checks.
@Suite struct MembershipWireTests {
    /// A library on real SQLite files with its person founded.
    final class Peer: @unchecked Sendable {
        let directory: TestDirectory
        let identity: PeerIdentity
        let library: Library
        let person: DeviceList

        init() throws {
            directory = try TestDirectory()
            identity = try PeerIdentity.loadOrCreate(directory: directory.file("identity"))
            library = try Library(directory: directory.file("library"), localPeer: identity.peerID)
            person = try LocalPerson.loadOrFound(library, identity: identity, deviceName: "test", now: 1_000)
        }

        deinit { directory.remove() }

        func operations(_ zone: String, in store: StoreKind) throws -> [[UInt8]] {
            try library.store(store).membershipOperations(zone: zone)
        }
    }

    /// An owner with one share, one invited participant, and a participant holding the zone
    /// and the owner's device list (as after the hello).
    struct Pair {
        let owner = try! Peer()
        let participant = try! Peer()
        let zone: String

        init() throws {
            let file = owner.directory.file("photo")
            _ = FileManager.default.createFile(atPath: file, contents: Data("pixels".utf8))
            let photo = try owner.library.addPhoto(file: file, name: "beach.jpg")
            zone = try owner.library.privateStore.createShare(
                photo: photo, title: "Holidays", publicPermission: .none)
            try owner.library.privateStore.claimOwnedShares(for: owner.person.person)
            try owner.library.privateStore.setParticipant(
                zone: zone, peer: participant.identity.peerID, permission: .readOnly, status: .pending)
            try participant.library.sharedStore.prepareParticipantZone(zone, owner: owner.identity.peerID)
            try participant.library.privateStore.saveDeviceListEntries(
                owner.person.entries.map { ($0.hash, $0.encoded) }, of: owner.person.person)
            try participant.library.privateStore.notePerson(owner.person.person, of: owner.identity.peerID)
        }

        func issue() -> [MembershipOperation] {
            let issued = MembershipIssuer(library: owner.library, identity: owner.identity).reconcile {
                zone, error in
                Issue.record("\(zone): \(error)")
            }
            return issued[zone] ?? []
        }

        func summary(_ peer: Peer, _ store: StoreKind) throws -> MembershipSummary {
            try MembershipSummary.of(
                try #require(try peer.library.store(store).share(zone)), in: peer.library)
        }
    }

    @Test func theOwnerIssuesWhatItsRecordsSayOnceAndAgainOnlyWhatChanged() throws {
        let pair = try Pair()
        #expect(
            try pair.summary(pair.owner, .private).counts == (0, false))
        let invited = try #require(PersonID(digest: pair.participant.identity.peerID.bytes))
        let first = pair.issue().map(\.action)
        #expect(
            first == [
                .create(owner: pair.owner.person.person, title: "Holidays", publicPermission: .none),
                .invite(person: invited, permission: .readOnly),
            ])
        #expect(pair.issue().isEmpty, "nothing changed: nothing issued")
        #expect(
            try pair.summary(pair.owner, .private).counts == (2, true))

        // A URL, a permission and a revoked URL: one operation each, in the log's terms.
        let secret = [UInt8](repeating: 7, count: 32)
        let token = try pair.owner.library.privateStore.currentInvitation(zone: pair.zone, secret: secret)
            .token
        let hash = SHA256Hasher.digest(Array(token.utf8))
        #expect(pair.issue().map(\.action) == [.addToken(hash: hash, permission: .none)])
        try pair.owner.library.privateStore.setParticipant(
            zone: pair.zone, peer: pair.participant.identity.peerID, permission: .readWrite, status: .accepted
        )
        #expect(pair.issue().map(\.action) == [.setPermission(person: invited, permission: .readWrite)])
        let renewed = try pair.owner.library.privateStore.revokeInvitations(zone: pair.zone, secret: secret)
        #expect(
            pair.issue().map(\.action) == [
                .revokeToken(hash: hash),
                .addToken(hash: SHA256Hasher.digest(Array(renewed.utf8)), permission: .none),
            ])
        // Accepted in the records, pending in a fold without any accept (an upgrade): still a match.
        #expect(
            try pair.summary(pair.owner, .private).counts == (6, true))

        // A removal, then the stop; nothing after it.
        try pair.owner.library.privateStore.setParticipant(
            zone: pair.zone, peer: pair.participant.identity.peerID, status: .removed)
        #expect(pair.issue().map(\.action) == [.remove(person: invited, cutoffs: [])])
        try pair.owner.library.privateStore.stopShare(pair.zone, purge: false)
        #expect(pair.issue().map(\.action) == [.stop])
        #expect(pair.issue().isEmpty)
        #expect(
            try pair.summary(pair.owner, .private).counts == (8, true))
    }

    @Test func aParticipantStoresTheOwnersOperationsAndRefusesForgedOrAlteredOnes() throws {
        let pair = try Pair()
        let issued = pair.issue()
        let participant = pair.participant
        let stored = try MembershipIntake.receive(
            issued.map(\.encoded), zone: pair.zone, library: participant.library)
        #expect(stored == MembershipIntake.Outcome(kept: issued.map(\.encoded), refused: []))
        #expect(try participant.operations(pair.zone, in: .shared) == issued.map(\.encoded))
        let again = try MembershipIntake.receive(
            issued.map(\.encoded), zone: pair.zone, library: participant.library)
        #expect(again == MembershipIntake.Outcome(kept: [], refused: []), "duplicates are ignored")

        let own = participant.person.person
        let device = participant.identity.peerID
        // Signed by the participant's own key, as itself and passing for the owner.
        let asItself = MembershipOperation.signed(
            .setPermission(person: own, permission: .readWrite), zone: pair.zone, stamp: 99_000_000,
            by: participant.identity, of: own)
        let asOwner = MembershipOperation.signed(
            .setTitle("Mine"), zone: pair.zone, stamp: 99_000_000, by: participant.identity,
            of: pair.owner.person.person)
        // The owner's create with its title altered after signing.
        var altered = issued[0].encoded
        let title = Array("Holidays".utf8)
        let at = try #require(
            altered.indices.first { Array(altered[$0..<min($0 + title.count, altered.count)]) == title })
        altered[at] = UInt8(ascii: "J")
        let outcome = try MembershipIntake.receive(
            [asItself.encoded, asOwner.encoded, altered], zone: pair.zone, library: participant.library)
        #expect(
            outcome
                == MembershipIntake.Outcome(
                    kept: [],
                    refused: [
                        .notSignedByOwner(action: "change a permission", signerPerson: own),
                        .unknownSigner(device: device, person: pair.owner.person.person),
                        .badSignature(signer: pair.owner.identity.peerID),
                    ]))
        #expect(try participant.operations(pair.zone, in: .shared) == issued.map(\.encoded), "nothing stored")
        #expect(try pair.summary(participant, .shared).operations == 2)
    }

    @Test func beforeTheOwnersListIsStoredTheListItsConnectionProvedVouchesForIt() throws {
        let pair = try Pair()
        let issued = pair.issue().map(\.encoded)
        let newcomer = try Peer()
        try newcomer.library.sharedStore.prepareParticipantZone(pair.zone, owner: pair.owner.identity.peerID)
        // A list that does not hold the owner's device vouches for nothing.
        #expect(
            throws: MembershipIntake.Failure.ownerPersonUnknown(
                zone: pair.zone, owner: pair.owner.identity.peerID)
        ) {
            try MembershipIntake.receive(
                issued, zone: pair.zone, library: newcomer.library, sender: pair.participant.person)
        }
        let outcome = try MembershipIntake.receive(
            issued, zone: pair.zone, library: newcomer.library, sender: pair.owner.person)
        #expect(outcome == MembershipIntake.Outcome(kept: issued, refused: []))
    }

    @Test func operationsOfAZoneNotHeldOrOfAnUnknownOwnerAreNotChecked() throws {
        let pair = try Pair()
        let issued = pair.issue().map(\.encoded)
        let stranger = try Peer()
        #expect(throws: MembershipIntake.Failure.unknownZone(pair.zone)) {
            try MembershipIntake.receive(issued, zone: pair.zone, library: stranger.library)
        }
        try stranger.library.sharedStore.prepareParticipantZone(pair.zone, owner: pair.owner.identity.peerID)
        #expect(
            throws: MembershipIntake.Failure.ownerPersonUnknown(
                zone: pair.zone, owner: pair.owner.identity.peerID)
        ) {
            try MembershipIntake.receive(issued, zone: pair.zone, library: stranger.library)
        }
        #expect(try stranger.operations(pair.zone, in: .shared).isEmpty)
    }
}

extension MembershipSummary {
    /// The operations and whether they match the records, for comparisons.
    fileprivate var counts: (Int, Bool) { (operations, matchesRecords) }
}
