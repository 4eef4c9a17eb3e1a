import Store
import Support
import TestSupport
import Testing

@testable import Replication

/// A zone's membership log: each operation checked on arrival (zone, signature, who may
/// sign it), and the fold's rules (invitations, tokens, removals, stop, cut-offs).
@Suite struct MembershipLogTests {
    let people = MembershipPeople.shared
    var alice: PersonID { people.alice }
    var aliceDevice: PeerIdentity { people.aliceDevice }

    func acceptByAlice(at stamp: UInt64, token: String? = nil) -> MembershipOperation {
        people.op(
            .accept(person: alice, device: aliceDevice.peerID, token: token.map { Array($0.utf8) }),
            by: aliceDevice, at: stamp)
    }

    func participant(_ log: MembershipLog, _ person: PersonID) -> MembershipParticipant? {
        log.state?.participants[person]
    }

    // MARK: refused on arrival

    @Test func anAlteredOperationFailsItsSignatureAndChangesNothing() throws {
        var log = try people.log([people.create()])
        let genuine = people.op(.setTitle("Holiday 2024"), by: people.laptop, at: 20)
        let altered = MembershipOperation(
            zone: genuine.zone, action: .setTitle("Pwned"), stamp: genuine.stamp, signer: genuine.signer,
            signerPerson: genuine.signerPerson, signature: genuine.signature)
        #expect(throws: MembershipError.badSignature(signer: people.laptop.peerID)) {
            try log.receive(altered, directory: people.directory)
        }
        // The laptop's signature claimed under the desktop's name.
        let borrowed = MembershipOperation(
            zone: genuine.zone, action: genuine.action, stamp: genuine.stamp, signer: people.desktop.peerID,
            signerPerson: genuine.signerPerson, signature: genuine.signature)
        #expect(throws: MembershipError.badSignature(signer: people.desktop.peerID)) {
            try log.receive(borrowed, directory: people.directory)
        }
        #expect(log.state?.title == "Holiday")
        #expect(log.operations.count == 1)
        try log.receive(genuine, directory: people.directory)
        #expect(log.state?.title == "Holiday 2024")
    }

    @Test func anOperationReplayedIntoAnotherZoneIsRefused() throws {
        var other = try people.log([people.create(zone: "zone-2")], zone: "zone-2")
        let removal = people.op(
            .remove(person: alice, cutoffs: []), by: people.laptop, at: 20, zone: "zone-1")
        #expect(throws: MembershipError.wrongZone(operation: "zone-1", log: "zone-2")) {
            try other.receive(removal, directory: people.directory)
        }
        // Relabelled as zone-2's: the zone is under the signature.
        let relabelled = MembershipOperation(
            zone: "zone-2", action: removal.action, stamp: removal.stamp, signer: removal.signer,
            signerPerson: removal.signerPerson, signature: removal.signature)
        #expect(throws: MembershipError.badSignature(signer: people.laptop.peerID)) {
            try other.receive(relabelled, directory: people.directory)
        }
        #expect(other.operations.count == 1)
        #expect(other.state?.participants.isEmpty == true)
    }

    @Test func onlyTheOwnersDevicesMayChangeTheMembership() throws {
        var log = try people.log([
            people.create(),
            people.op(.invite(person: alice, permission: .readWrite), by: people.laptop, at: 11),
            acceptByAlice(at: 12),
        ])
        // A read-write participant tries to promote another person, and to stop the zone.
        for action: MembershipOperation.Action in [
            .invite(person: people.bob, permission: .readWrite), .stop,
        ] {
            #expect(throws: MembershipError.notSignedByOwner(action: action.name, signerPerson: alice)) {
                try log.receive(people.op(action, by: aliceDevice, at: 13), directory: people.directory)
            }
        }
        // A stranger's device claims to be one of the owner's.
        let impostor = MembershipOperation.signed(
            .setPublicPermission(.readWrite), zone: "zone-1", stamp: 14, by: people.strangerDevice,
            of: people.owner)
        #expect(
            throws: MembershipError.unknownSigner(device: people.strangerDevice.peerID, person: people.owner)
        ) {
            try log.receive(impostor, directory: people.directory)
        }
        // Any device of the owner may: the desktop changes the title.
        try log.receive(people.op(.setTitle("Desk"), by: people.desktop, at: 15), directory: people.directory)
        #expect(log.state?.title == "Desk")
        #expect(log.state?.publicPermission == Permission.none)
        #expect(log.operations.count == 4)
        // A create naming another owner, even signed by the owner, is refused.
        let wrongOwner = people.op(
            .create(owner: alice, title: "x", publicPermission: .none), by: people.laptop, at: 1,
            zone: "zone-1")
        #expect(throws: MembershipError.wrongOwner(named: alice, zoneOwner: people.owner)) {
            try log.receive(wrongOwner, directory: people.directory)
        }
    }

    @Test func acceptsAndLeavesAreSignedByTheirOwnPersonsDevice() throws {
        var log = try people.log([
            people.create(),
            people.op(.invite(person: alice, permission: .readWrite), by: people.laptop, at: 11),
        ])
        let forBob = people.op(
            .accept(person: alice, device: aliceDevice.peerID, token: nil), by: people.bobDevice, at: 12)
        #expect(
            throws: MembershipError.notSignedBySubject(
                action: "accept an invitation", signer: people.bobDevice.peerID)
        ) { try log.receive(forBob, directory: people.directory) }
        let otherDevice = people.op(
            .accept(person: alice, device: people.bobDevice.peerID, token: nil), by: aliceDevice, at: 12)
        #expect(
            throws: MembershipError.notSignedBySubject(
                action: "accept an invitation", signer: aliceDevice.peerID)
        ) {
            try log.receive(otherDevice, directory: people.directory)
        }
        #expect(throws: MembershipError.notSignedBySubject(action: "leave", signer: people.laptop.peerID)) {
            try log.receive(
                people.op(.leave(person: alice), by: people.laptop, at: 13), directory: people.directory)
        }
        #expect(participant(log, alice)?.status == .pending)
    }

    @Test func aDeviceListAnswersForItsOwnPersonsDevicesOnly() throws {
        var ownerList = people.ownerList
        var log = MembershipLog(zone: "zone-1", owner: people.owner)
        try log.receive(people.create(), directory: ownerList)
        try log.receive(people.op(.setTitle("desk"), by: people.desktop, at: 11), directory: ownerList)
        #expect(ownerList.certificate(of: people.laptop.peerID, person: people.alice) == nil)
        #expect(throws: MembershipError.unknownSigner(device: aliceDevice.peerID, person: alice)) {
            try log.receive(acceptByAlice(at: 12), directory: ownerList)
        }
        // A device removed from the owner's list signs no more membership operations.
        _ = try ownerList.append(.remove(device: people.desktop.peerID), by: people.laptop, at: 2_000)
        #expect(throws: MembershipError.unknownSigner(device: people.desktop.peerID, person: people.owner)) {
            try log.receive(people.op(.stop, by: people.desktop, at: 13), directory: ownerList)
        }
        #expect(log.state?.title == "desk")
        #expect(log.state?.stopped == false)
    }

    @Test func theLogHoldsAtMostItsMaximumOfOperations() throws {
        var log = try people.log([people.create()])
        for stamp in 1..<UInt64(MembershipLog.maximumOperations) {
            try log.receive(
                people.op(.setTitle("t\(stamp)"), by: people.laptop, at: 100 + stamp),
                directory: people.directory)
        }
        #expect(throws: MembershipError.tooManyOperations(maximum: MembershipLog.maximumOperations)) {
            try log.receive(people.op(.stop, by: people.laptop, at: 1_000_000), directory: people.directory)
        }
        // A duplicate is not a new operation.
        try log.receive(people.create(), directory: people.directory)
        #expect(log.operations.count == MembershipLog.maximumOperations)
        #expect(log.state?.stopped == false)
    }

    /// A member signing accept after accept (each valid, each kept) used to fill the log,
    /// and every replica's, to its maximum, after which the owner could not even remove it.
    /// Now a participant person has a share of the log, which each of the owner's operations
    /// naming it raises, and the owner's removal goes through.
    @Test func aParticipantsOperationsBeyondItsShareAreRefusedAndItCanStillBeRemoved() throws {
        var log = try people.log([
            people.create(),
            people.op(.invite(person: alice, permission: .readWrite), by: people.laptop, at: 11),
        ])
        let share = MembershipLog.operationsPerParticipant + MembershipLog.operationsPerOwnerMention
        for index in 0..<share {
            try log.receive(acceptByAlice(at: 100 + UInt64(index)), directory: people.directory)
        }
        let count = log.operations.count
        #expect(throws: MembershipError.tooManyOperationsSignedBy(alice, maximum: share)) {
            try log.receive(acceptByAlice(at: 1_000), directory: people.directory)
        }
        #expect(log.operations.count == count)
        #expect(participant(log, alice)?.status == .accepted)
        try log.receive(
            people.op(.remove(person: alice, cutoffs: []), by: people.laptop, at: 2_000),
            directory: people.directory)
        #expect(participant(log, alice)?.status == .removed)
        // The removal names her: her share grows by one mention (a leave, here set aside).
        try log.receive(
            people.op(.leave(person: alice), by: aliceDevice, at: 2_001), directory: people.directory)
        #expect(log.operations.count == count + 2)
    }

    /// The last `ownerReserve` places of the log are the owner's: participants' operations
    /// are refused before it, the owner's still taken.
    @Test func theLogsLastPlacesAreKeptForTheOwner() throws {
        var log = try people.log([
            people.create(),
            people.op(.invite(person: alice, permission: .readWrite), by: people.laptop, at: 11),
        ])
        let open = MembershipLog.maximumOperations - MembershipLog.ownerReserve
        for index in log.operations.count..<open {
            try log.receive(
                people.op(.setTitle("Title \(index)"), by: people.laptop, at: 100 + UInt64(index)),
                directory: people.directory)
        }
        #expect(throws: MembershipError.tooManyOperations(maximum: open)) {
            try log.receive(acceptByAlice(at: 50_000), directory: people.directory)
        }
        try log.receive(
            people.op(.remove(person: alice, cutoffs: []), by: people.laptop, at: 50_001),
            directory: people.directory)
        #expect(participant(log, alice)?.status == .removed)
        #expect(log.operations.count == open + 1)
    }

    // MARK: set aside by the fold

    @Test func anAcceptWithoutAnInvitationHasNoEffect() throws {
        let accept = acceptByAlice(at: 12)
        let log = try people.log([people.create(), accept])
        #expect(log.rejection(of: accept.hash) == .notInvited(alice))
        #expect(participant(log, alice) == nil)
        #expect(!log.mayWrite(person: alice))
        // An accept ordered before its invitation counts no more, whichever arrives first.
        let invite = people.op(.invite(person: alice, permission: .readWrite), by: people.laptop, at: 13)
        let late = try people.log([people.create(), invite, accept])
        #expect(late.rejection(of: accept.hash) == .notInvited(alice))
        #expect(participant(late, alice)?.status == .pending)
    }

    @Test func anAcceptAfterARemovalNeedsANewInvitation() throws {
        let token = "public-url-token"
        let accept = acceptByAlice(at: 14, token: token)
        let log = try people.log([
            people.create(publicPermission: .readOnly),
            people.op(
                .addToken(hash: SHA256Hasher.digest(Array(token.utf8)), permission: .none), by: people.laptop,
                at: 11),
            people.op(.invite(person: alice, permission: .readWrite), by: people.laptop, at: 12),
            people.op(.remove(person: alice, cutoffs: []), by: people.laptop, at: 13),
            accept,
        ])
        // Not even the share URL (still live, public read-only) lets a removed person back.
        #expect(log.rejection(of: accept.hash) == .removedNotInvitedAgain(alice))
        #expect(participant(log, alice)?.status == .removed)
        #expect(
            MembershipError.removedNotInvitedAgain(alice).description
                == "person \(alice) was removed from the zone: the owner must invite it again")
    }

    @Test func aRevokedTokenAdmitsNobodyAndIsNeverLiveAgain() throws {
        let token = "url-token"
        let hash = SHA256Hasher.digest(Array(token.utf8))
        let accept = acceptByAlice(at: 13, token: token)
        let readdedLater = people.op(
            .addToken(hash: hash, permission: .readWrite), by: people.desktop, at: 14)
        let laterAccept = people.op(
            .accept(person: people.bob, device: people.bobDevice.peerID, token: Array(token.utf8)),
            by: people.bobDevice, at: 15)
        let log = try people.log([
            people.create(publicPermission: .readOnly),
            people.op(.addToken(hash: hash, permission: .none), by: people.laptop, at: 11),
            people.op(.revokeToken(hash: hash), by: people.laptop, at: 12),
            accept, readdedLater, laterAccept,
        ])
        #expect(log.rejection(of: accept.hash) == .revokedToken)
        #expect(log.rejection(of: readdedLater.hash) == .revokedToken)
        #expect(log.rejection(of: laterAccept.hash) == .revokedToken)
        #expect(log.state?.participants.isEmpty == true)
        #expect(log.state?.tokens.isEmpty == true)
    }

    @Test func aTokenAdmitsWithThePublicPermissionOrItsOwn() throws {
        let shareURL = "share-url"
        let personal = "personal-url"
        let aliceAccept = acceptByAlice(at: 20, token: shareURL)
        let bobAccept = people.op(
            .accept(person: people.bob, device: people.bobDevice.peerID, token: Array(personal.utf8)),
            by: people.bobDevice, at: 21)
        let unknown = people.op(
            .accept(
                person: people.stranger, device: people.strangerDevice.peerID, token: Array("guess".utf8)),
            by: people.strangerDevice, at: 22)
        let base = [
            people.create(publicPermission: .none),
            people.op(
                .addToken(hash: SHA256Hasher.digest(Array(shareURL.utf8)), permission: .none),
                by: people.laptop, at: 11),
            people.op(
                .addToken(hash: SHA256Hasher.digest(Array(personal.utf8)), permission: .readWrite),
                by: people.laptop,
                at: 12),
        ]
        // Private: the share URL admits nobody, a token with its own permission does.
        let private_ = try people.log(base + [aliceAccept, bobAccept, unknown])
        #expect(private_.rejection(of: aliceAccept.hash) == .notPublic)
        #expect(private_.rejection(of: unknown.hash) == .unknownToken)
        #expect(
            participant(private_, people.bob)
                == MembershipParticipant(
                    permission: .readWrite, status: .accepted, devices: [people.bobDevice.peerID]))
        // Public read-only: the share URL admits read-only.
        let open = try people.log(
            base + [people.op(.setPublicPermission(.readOnly), by: people.laptop, at: 13), aliceAccept])
        #expect(participant(open, alice)?.permission == .readOnly)
        #expect(participant(open, alice)?.status == .accepted)
        #expect(!open.mayWrite(person: alice))
    }

    @Test func operationsBeforeTheCreateWaitAndThoseDatedBeforeItHaveNoEffect() throws {
        let early = people.op(.setTitle("too early"), by: people.laptop, at: 5)
        let invite = people.op(.invite(person: alice, permission: .readOnly), by: people.laptop, at: 11)
        var log = try people.log([invite, early])
        #expect(log.state == nil)
        #expect(!log.mayWrite(person: people.owner))
        try log.receive(people.create(at: 10), directory: people.directory)
        #expect(log.state?.title == "Holiday")
        #expect(log.rejection(of: early.hash) == .beforeCreate)
        #expect(participant(log, alice)?.status == .pending)
        #expect(log.mayWrite(person: people.owner))
        let second = people.create(title: "again", at: 12)
        try log.receive(second, directory: people.directory)
        #expect(log.rejection(of: second.hash) == .alreadyCreated)
        #expect(log.state?.title == "Holiday")
    }

    // MARK: scenarios

    @Test func inviteAcceptPermissionChangeRemovalAndReinvitation() throws {
        var log = try people.log([people.create()])
        func receive(_ op: MembershipOperation) throws { try log.receive(op, directory: people.directory) }
        try receive(people.op(.invite(person: alice, permission: .readOnly), by: people.laptop, at: 11))
        #expect(participant(log, alice) == MembershipParticipant(permission: .readOnly, status: .pending))
        #expect(!log.mayWrite(person: alice))
        try receive(acceptByAlice(at: 12))
        #expect(participant(log, alice)?.status == .accepted)
        #expect(participant(log, alice)?.devices == [aliceDevice.peerID])
        #expect(!log.mayWrite(person: alice))
        try receive(
            people.op(.setPermission(person: alice, permission: .readWrite), by: people.desktop, at: 13))
        #expect(log.mayWrite(person: alice))
        let cutoff = MembershipOperation.Cutoff(
            device: aliceDevice.peerID, seq: 7, hash: [UInt8](repeating: 3, count: 32))
        try receive(people.op(.remove(person: alice, cutoffs: [cutoff]), by: people.laptop, at: 14))
        #expect(participant(log, alice) == MembershipParticipant(permission: .none, status: .removed))
        #expect(!log.mayWrite(person: alice))
        #expect(log.cutoff(device: aliceDevice.peerID) == cutoff)
        // A permission change does not bring a removed person back.
        let promote = people.op(
            .setPermission(person: alice, permission: .readWrite), by: people.laptop, at: 15)
        try receive(promote)
        #expect(log.rejection(of: promote.hash) == .notAParticipant(alice))
        // Invited again: pending until a new accept, which then counts.
        try receive(people.op(.invite(person: alice, permission: .readWrite), by: people.laptop, at: 16))
        #expect(participant(log, alice)?.status == .pending)
        #expect(!log.mayWrite(person: alice))
        try receive(acceptByAlice(at: 17))
        #expect(log.mayWrite(person: alice))
        #expect(log.cutoff(device: aliceDevice.peerID) == cutoff)
        // Leaving ends it; another leave has nothing to end.
        try receive(people.op(.leave(person: alice), by: aliceDevice, at: 18))
        #expect(participant(log, alice)?.status == .removed)
        let again = people.op(.leave(person: alice), by: aliceDevice, at: 19)
        try receive(again)
        #expect(log.rejection(of: again.hash) == .notAParticipant(alice))
    }

    @Test func aStopAbsorbsEveryLaterOperation() throws {
        let later: [MembershipOperation] = [
            people.op(.setTitle("after"), by: people.laptop, at: 21),
            people.op(.invite(person: people.bob, permission: .readWrite), by: people.laptop, at: 22),
            people.op(.setPublicPermission(.readWrite), by: people.desktop, at: 23),
            people.op(.leave(person: alice), by: aliceDevice, at: 24),
        ]
        let stop = people.op(.stop, by: people.desktop, at: 20)
        let before = [
            people.create(),
            people.op(.invite(person: alice, permission: .readWrite), by: people.laptop, at: 11),
            acceptByAlice(at: 12),
        ]
        // Later operations arriving before the stop change nothing either.
        for operations in [before + [stop] + later, before + later.reversed() + [stop]] {
            let log = try people.log(operations)
            #expect(log.state?.stopped == true)
            #expect(log.state?.title == "Holiday")
            #expect(log.state?.publicPermission == Permission.none)
            #expect(participant(log, alice)?.status == .accepted)
            #expect(participant(log, people.bob) == nil)
            #expect(later.allSatisfy { log.rejection(of: $0.hash) == .afterStop })
            #expect(!log.mayWrite(person: people.owner))
            #expect(!log.mayWrite(person: alice))
        }
    }

    @Test func aDevicesCutoffNeverMovesBack() throws {
        func cutoff(_ seq: UInt64) -> MembershipOperation.Cutoff {
            .init(device: aliceDevice.peerID, seq: seq, hash: [UInt8](repeating: UInt8(seq), count: 32))
        }
        let removals = [
            people.op(.remove(person: alice, cutoffs: [cutoff(10)]), by: people.laptop, at: 20),
            people.op(.invite(person: alice, permission: .readWrite), by: people.laptop, at: 21),
            // The desktop, behind, removes her again with what it held: an older cut-off.
            people.op(.remove(person: alice, cutoffs: [cutoff(4)]), by: people.desktop, at: 22),
            people.op(.invite(person: alice, permission: .readWrite), by: people.laptop, at: 23),
        ]
        for order in [removals, removals.reversed(), [removals[2], removals[0], removals[3], removals[1]]] {
            let log = try people.log([people.create()] + order)
            #expect(log.cutoff(device: aliceDevice.peerID) == cutoff(10))
            #expect(participant(log, alice)?.status == .pending)
        }
        let higher = people.op(.remove(person: alice, cutoffs: [cutoff(12)]), by: people.laptop, at: 24)
        let log = try people.log([people.create()] + removals + [higher])
        #expect(log.cutoff(device: aliceDevice.peerID) == cutoff(12))
        #expect(log.cutoff(device: people.bobDevice.peerID) == nil)
    }

    @Test func aDuplicateIsIgnored() throws {
        let invite = people.op(.invite(person: alice, permission: .readWrite), by: people.laptop, at: 11)
        let log = try people.log([
            people.create(), invite, acceptByAlice(at: 12), invite,
            try MembershipOperation(decoding: invite.encoded),
        ])
        #expect(log.operations.count == 3)
        #expect(participant(log, alice)?.status == .accepted)
    }
}
