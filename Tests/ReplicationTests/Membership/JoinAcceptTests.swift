import Foundation
import Store
import TestSupport
import Testing

@testable import Replication

/// The joiner-signed `accept` a join request carries (docs/PROTOCOL.md §10): the owner
/// keeps the one its log takes, refuses a join whose accept does not check (changing
/// nothing), and answers an accept dated before its invitation with its clock.
@Suite struct JoinAcceptTests {
    /// A library with an identity and a person, on real SQLite files.
    final class Device: @unchecked Sendable {
        let directory: TestDirectory
        let identity: PeerIdentity
        let library: Library
        let list: DeviceList

        init(clock: HybridLogicalClock = HybridLogicalClock()) throws {
            directory = try TestDirectory()
            identity = try PeerIdentity.loadOrCreate(directory: directory.file("identity"))
            library = try Library(
                directory: directory.file("library"), localPeer: identity.peerID, clock: clock)
            list = try LocalPerson.loadOrFound(library, identity: identity, deviceName: "device", now: 1_000)
        }

        deinit { directory.remove() }

        var person: PersonID { list.person }
    }

    /// An owner's share "Holidays" with its log issued; returns the zone and the URL token.
    static func share(by owner: Device, publicPermission: Permission, inviting: PeerID?) throws -> (
        String, String
    ) {
        let file = owner.directory.file("photo")
        FileManager.default.createFile(atPath: file, contents: Data("pixels".utf8))
        let photo = try owner.library.addPhoto(file: file, name: "beach.jpg")
        let zone = try owner.library.privateStore.createShare(
            photo: photo, title: "Holidays", publicPermission: publicPermission)
        if let inviting {
            try owner.library.privateStore.setParticipant(
                zone: zone, peer: inviting, permission: .readWrite, status: .pending)
        }
        let token = try owner.library.currentInvitation(zone: zone).token
        _ = MembershipIssuer(library: owner.library, identity: owner.identity).reconcile { _, error in
            Issue.record("reconcile failed: \(error)")
        }
        return (zone, token)
    }

    /// An owner's private share with an invited device that has joined it.
    static func joinedShare() throws -> (owner: Device, joiner: Device, zone: String, token: String) {
        let owner = try Device()
        let joiner = try Device()
        let (zone, token) = try share(by: owner, publicPermission: .none, inviting: joiner.identity.peerID)
        #expect(
            join(owner, zone: zone, token: token, as: joiner).0
                == .accepted(title: "Holidays", permission: .readWrite))
        return (owner, joiner, zone, token)
    }

    /// The owner's log of `zone` as stored.
    static func log(of zone: String, in owner: Device) throws -> MembershipLog {
        try StoredMembership.load(
            zone: zone, owner: owner.person, from: owner.library.privateStore,
            privateStore: owner.library.privateStore
        ).log
    }

    static func respond(
        _ owner: Device, zone: String, token: String, accepts: [[UInt8]], from joiner: Device,
        relayed: Bool = false
    ) -> (JoinResponse, [[UInt8]]) {
        var published: [[UInt8]] = []
        let answer = JoinHandler.respond(
            to: JoinRequest(zone: zone, token: token, accepts: accepts), from: joiner.identity.peerID,
            person: joiner.list, library: owner.library, relayed: relayed
        ) { _, operations in published += operations }
        return (answer, published)
    }

    /// Joins as `ShareJoiner` does: signs the accepts and, if the owner says they are dated
    /// too early (same millisecond as the invitation, say), signs them again after its clock.
    static func join(
        _ owner: Device, zone: String, token: String, as joiner: Device
    ) -> (JoinResponse, [[UInt8]], accepts: [[UInt8]]) {
        var accepts = JoinAccepts.sign(
            zone: zone, token: token, identity: joiner.identity, library: joiner.library)
        var (answer, published) = respond(owner, zone: zone, token: token, accepts: accepts, from: joiner)
        if case .acceptTooEarly(let clock) = answer {
            accepts = JoinAccepts.sign(
                zone: zone, token: token, identity: joiner.identity, library: joiner.library, after: clock)
            (answer, published) = respond(owner, zone: zone, token: token, accepts: accepts, from: joiner)
        }
        return (answer, published, accepts)
    }

    /// `device`'s signed leave of `zone` (stamped by the owner's clock, after its
    /// invitations), as its leave notice brings it to `owner` with its device list: the
    /// answer, what the owner pushed, and the leave.
    static func leave(_ zone: String, as device: Device, to owner: Device) -> (
        JoinResponse, [[UInt8]], MembershipOperation
    ) {
        let leave = MembershipOperation.signed(
            .leave(person: device.person), zone: zone, stamp: owner.library.privateStore.nextStamp(),
            by: device.identity, of: device.person)
        var pushed: [[UInt8]] = []
        let answer = JoinHandler.leave(
            ZoneNotice(type: .leaveNotice, zone: zone, operation: leave.encoded), by: device.identity.peerID,
            person: device.list, library: owner.library
        ) { _, operations in pushed += operations }
        return (answer, pushed, leave)
    }

    @Test func anInvitedDevicesAcceptIsStoredPushedAndFoldsAccepted() throws {
        let owner = try Device()
        let joiner = try Device()
        let (zone, token) = try Self.share(
            by: owner, publicPermission: .none, inviting: joiner.identity.peerID)
        let (answer, published, accepts) = Self.join(owner, zone: zone, token: token, as: joiner)
        #expect(answer == .accepted(title: "Holidays", permission: .readWrite))
        // The invitation is under the device's ID: the accept without the token is the one kept.
        #expect(published == [accepts[0]])
        let log = try Self.log(of: zone, in: owner)
        let invited = PersonID(digest: joiner.identity.peerID.bytes)!
        #expect(log.state?.participants[invited]?.status == .accepted)
        #expect(log.operations.count == 4)  // create, token, invite, accept
    }

    @Test func onceTheLogHoldsAnAcceptAnAcceptedRecordWithoutOneNoLongerMatches() throws {
        let owner = try Device()
        let joiner = try Device()
        let (zone, token) = try Self.share(
            by: owner, publicPermission: .none, inviting: joiner.identity.peerID)
        let share = { try #require(try owner.library.privateStore.share(zone)) }
        // Accepted in the records, with no accept anywhere in the log (an upgrade): a match.
        let earlier = PeerID(digest: [UInt8](repeating: 0x3C, count: 32))!
        try owner.library.privateStore.setParticipant(
            zone: zone, peer: earlier, permission: .readOnly, status: .accepted)
        _ = MembershipIssuer(library: owner.library, identity: owner.identity).reconcile { _, _ in }
        #expect(try MembershipSummary.of(share(), in: owner.library).matchesRecords)
        // The joiner's accept is the log's first: the earlier participant's pending fold no
        // longer counts as accepted.
        #expect(
            Self.join(owner, zone: zone, token: token, as: joiner).0
                == .accepted(title: "Holidays", permission: .readWrite))
        let summary = try MembershipSummary.of(share(), in: owner.library)
        #expect(!summary.matchesRecords)
        #expect(summary.participants[PersonID(digest: earlier.bytes)!]?.status == .pending)
        #expect(summary.participants[PersonID(digest: joiner.identity.peerID.bytes)!]?.status == .accepted)
    }

    @Test func aJoinByTokenKeepsTheAcceptWithTheToken() throws {
        let owner = try Device()
        let joiner = try Device()
        let (zone, token) = try Self.share(by: owner, publicPermission: .readOnly, inviting: nil)
        let (answer, published, accepts) = Self.join(owner, zone: zone, token: token, as: joiner)
        #expect(answer == .accepted(title: "Holidays", permission: .readOnly))
        #expect(published == [accepts[1]])
        #expect(try Self.log(of: zone, in: owner).state?.participants[joiner.person]?.status == .accepted)
    }

    @Test func aJoinWhoseAcceptDoesNotCheckIsRefusedAndChangesNothing() throws {
        let owner = try Device()
        let joiner = try Device()
        let forger = try Device()
        let (zone, token) = try Self.share(
            by: owner, publicPermission: .readOnly, inviting: joiner.identity.peerID)
        let other = try Self.share(by: owner, publicPermission: .readOnly, inviting: nil).0
        let person = joiner.person
        let device = joiner.identity.peerID
        let cases: [([UInt8], String)] = [
            // Signed by another key, claiming the joiner's device and person as its signer.
            (
                MembershipOperation(
                    zone: zone, action: .accept(person: person, device: device, token: nil), stamp: 1 << 50,
                    signer: device, signerPerson: person,
                    signature: MembershipOperation.signed(
                        .accept(person: person, device: device, token: nil), zone: zone, stamp: 1 << 50,
                        by: forger.identity, of: person
                    ).signature
                ).encoded,
                "the join's accept does not check: \(MembershipError.badSignature(signer: device))"
            ),
            // Signed by another device, for the joiner's device.
            (
                MembershipOperation.signed(
                    .accept(person: person, device: device, token: nil), zone: zone,
                    stamp: owner.library.privateStore.nextStamp(), by: forger.identity, of: person
                ).encoded,
                "the join's accept is signed by device \(forger.identity.peerID), not the joining device \(device)"
            ),
            (
                MembershipOperation.signed(
                    .accept(person: forger.person, device: device, token: nil), zone: zone,
                    stamp: owner.library.privateStore.nextStamp(), by: joiner.identity, of: forger.person
                ).encoded,
                "the join's accept names person \(forger.person), not the joining device's person \(person)"
            ),
            (
                JoinAccepts.sign(
                    zone: other, token: token, identity: joiner.identity, library: joiner.library)[0],
                "the join's accept does not check: "
                    + "\(MembershipError.wrongZone(operation: other, log: zone))"
            ),
            (
                JoinAccepts.sign(
                    zone: zone, token: "another", identity: joiner.identity, library: joiner.library)[1],
                "the join's accept carries another token than the join request"
            ),
            (
                MembershipOperation.signed(
                    .leave(person: person), zone: zone, stamp: owner.library.privateStore.nextStamp(),
                    by: joiner.identity, of: person
                ).encoded,
                "the join's accept is not an accept: it would leave"
            ),
        ]
        for (accept, message) in cases {
            let (answer, published) = Self.respond(
                owner, zone: zone, token: token, accepts: [accept], from: joiner)
            #expect(answer == .refused(code: .invalidAccept, message: message))
            #expect(published.isEmpty)
        }
        #expect(try owner.library.privateStore.participant(zone: zone, peer: device)?.status == .pending)
        // create, token, invite: no accept.
        #expect(try Self.log(of: zone, in: owner).operations.count == 3)
    }

    @Test func aLeaveNoticesSignedLeaveIsStoredOnlyWhenItChecks() throws {
        let (owner, joiner, zone, _) = try Self.joinedShare()
        let forger = try Device()
        let before = try Self.log(of: zone, in: owner).operations.count
        func leave(_ operation: MembershipOperation) -> (JoinResponse, [[UInt8]]) {
            var published: [[UInt8]] = []
            let answer = JoinHandler.leave(
                ZoneNotice(type: .leaveNotice, zone: zone, operation: operation.encoded),
                by: joiner.identity.peerID,
                person: joiner.list, library: owner.library
            ) { _, operations in published += operations }
            return (answer, published)
        }
        let stamp = owner.library.privateStore.nextStamp()
        // Another person's leave, signed by another device: dropped; the notice still counts.
        let forged = MembershipOperation.signed(
            .leave(person: forger.person), zone: zone, stamp: stamp, by: forger.identity, of: forger.person)
        let (answer, none) = leave(forged)
        #expect(answer == .refused(code: .left, message: "you left share \(zone)"))
        #expect(none.isEmpty)
        #expect(try Self.log(of: zone, in: owner).operations.count == before)
        #expect(
            try owner.library.privateStore.participant(zone: zone, peer: joiner.identity.peerID)?.status
                == .removed)
        // The joiner's own leave: stored, pushed, and the fold removes the device's entry.
        let own = MembershipOperation.signed(
            .leave(person: joiner.person), zone: zone, stamp: owner.library.privateStore.nextStamp(),
            by: joiner.identity, of: joiner.person)
        #expect(leave(own).1 == [own.encoded])
        let log = try Self.log(of: zone, in: owner)
        #expect(log.operations.count == before + 1)
        #expect(log.state?.participants[PersonID(digest: joiner.identity.peerID.bytes)!]?.status == .removed)
    }

    /// A device that accepts the same share again (its accept signed anew, so a new
    /// operation) is admitted as before, and nothing is stored or pushed: kept, each one
    /// would spend a place of its person's share of the log, and a device accepting on every
    /// start would in time be refused.
    @Test func acceptingTheSameShareAgainIsAdmittedAndStoresNothing() throws {
        let (owner, joiner, zone, token) = try Self.joinedShare()
        let before = try owner.library.privateStore.membershipOperationHashes(zone: zone)
        for _ in 0..<3 {
            let (answer, published, accepts) = Self.join(owner, zone: zone, token: token, as: joiner)
            #expect(answer == .accepted(title: "Holidays", permission: .readWrite))
            #expect(published.isEmpty)
            let hashes = try accepts.map { try MembershipOperation(decoding: $0).hash }
            #expect(!hashes.isEmpty && hashes.allSatisfy { !before.contains($0) })
        }
        #expect(try owner.library.privateStore.membershipOperationHashes(zone: zone) == before)
    }

    /// A member that admitted a device while the owner was away, its log without the device's
    /// earlier accept, holds an accept the owner's log does not need. Relayed by the member
    /// (ratified), the owner stores and pushes it all the same, so that every log holds the
    /// same operations; the device accepting again on its own still stores nothing.
    @Test func anUnchangedAcceptAMemberRelaysIsStoredSoThatTheLogsAgree() throws {
        let (owner, joiner, zone, token) = try Self.joinedShare()
        let again = JoinAccepts.sign(
            zone: zone, token: token, identity: joiner.identity, library: joiner.library)
        let hashes = try again.map { try MembershipOperation(decoding: $0).hash }
        let before = try owner.library.privateStore.membershipOperationHashes(zone: zone)
        #expect(!again.isEmpty && hashes.allSatisfy { !before.contains($0) })
        let (answer, published) = Self.respond(
            owner, zone: zone, token: token, accepts: again, from: joiner, relayed: true)
        #expect(answer == .accepted(title: "Holidays", permission: .readWrite))
        let kept = try #require(published.first)
        #expect(published.count == 1 && again.contains(kept))
        let stored = try owner.library.privateStore.membershipOperationHashes(zone: zone)
        #expect(stored.subtracting(before) == [try MembershipOperation(decoding: kept).hash])
        #expect(try Self.log(of: zone, in: owner).contains(MembershipOperation(decoding: kept).hash))
    }

    /// A member the owner removed sends a leave notice with its own signed leave: the log,
    /// where it is removed already, does not take it, nothing is pushed to the members, and
    /// its record stays removed. It is told no more than a participant who left. A leave
    /// whose person the log does not hold yet is still kept.
    @Test func aRemovedMembersSignedLeaveIsNeitherStoredNorPushed() throws {
        let (owner, joiner, zone, _) = try Self.joinedShare()
        try owner.library.privateStore.setParticipant(
            zone: zone, peer: joiner.identity.peerID, permission: .readWrite, status: .removed)
        _ = MembershipIssuer(library: owner.library, identity: owner.identity).reconcile { _, error in
            Issue.record("reconcile failed: \(error)")
        }
        let removed = try Self.log(of: zone, in: owner)
        let entry = try #require(PersonID(digest: joiner.identity.peerID.bytes))
        #expect(removed.state?.participants[entry]?.status == .removed)
        let (answer, published, _) = Self.leave(zone, as: joiner, to: owner)
        #expect(answer == .refused(code: .left, message: "you left share \(zone)"))
        #expect(published.isEmpty)
        #expect(try Self.log(of: zone, in: owner).operations.count == removed.operations.count)
        #expect(
            try owner.library.privateStore.participant(zone: zone, peer: joiner.identity.peerID)?.status
                == .removed)
        // A device the owner has a record of but its log does not hold yet (its accept still on
        // its way from a member that admitted it): its leave is kept and pushed, to take
        // effect where the accept is.
        let newcomer = try Device()
        try owner.library.privateStore.setParticipant(
            zone: zone, peer: newcomer.identity.peerID, permission: .readWrite, status: .accepted)
        let (_, pushed, early) = Self.leave(zone, as: newcomer, to: owner)
        #expect(pushed == [early.encoded])
        #expect(try owner.library.privateStore.membershipOperationHashes(zone: zone).contains(early.hash))
        // The owner keeps the leaver's device list with its leave: its log, loaded again,
        // checks the leave's signature and holds it, as the members' logs do.
        #expect(try Self.log(of: zone, in: owner).contains(early.hash))
    }

    /// A person invited, whose device a member admitted while the owner was away, leaves
    /// before the owner heard of the join: the owner has no list of the device, only the
    /// one the connection proves, and a pending record of the person. The leave ends that
    /// record and the log's entry alike (found by `MembershipScheduleTests`, seed 1201: the
    /// owner kept the person pending for good).
    @Test func aPersonsLeaveEndsItsInvitationWhenTheOwnerNeverSawItsDevice() throws {
        let owner = try Device()
        let joiner = try Device()
        let invited = try #require(PeerID(digest: joiner.person.bytes))
        let (zone, _) = try Self.share(by: owner, publicPermission: .none, inviting: invited)
        #expect(try Self.log(of: zone, in: owner).state?.participants[joiner.person]?.status == .pending)
        let (answer, published, leave) = Self.leave(zone, as: joiner, to: owner)
        #expect(answer == .refused(code: .left, message: "you left share \(zone)"))
        #expect(published == [leave.encoded])
        #expect(try owner.library.privateStore.participant(zone: zone, peer: invited)?.status == .removed)
        let log = try Self.log(of: zone, in: owner)
        #expect(log.contains(leave.hash))
        #expect(log.state?.participants[joiner.person]?.status == .removed)

        // A stranger's list proves nothing about anyone's invitation.
        let stranger = try Device()
        let unknown = JoinHandler.leave(
            ZoneNotice(type: .leaveNotice, zone: zone, operation: leave.encoded),
            by: stranger.identity.peerID,
            person: joiner.list, library: owner.library)
        #expect(unknown == .refused(code: .unknownShare, message: "the owner has no share \(zone)"))
    }

    /// A device's leave reached the owner, but the device stopped before the owner's answer
    /// reached it; the owner then invited it again. Started again, the device tells the same
    /// leave (`ShareMembership.signedLeave` with its departure's stamp: the same bytes each
    /// time): nothing is stored or pushed, and the invitation stays pending in the log and the
    /// records. A leave signed after the invitation ends it (found by
    /// `MembershipScheduleTests` with kills, seed 1721: a leave signed anew at each telling
    /// ended the invitation, and the person showed removed).
    @Test func aLeaveToldAgainAfterTheOwnerInvitedThePersonAnewLeavesTheInvitationPending() throws {
        let (owner, joiner, zone, _) = try Self.joinedShare()
        let device = joiner.identity.peerID
        let entry = try #require(PersonID(digest: device.bytes))
        let stamp = owner.library.privateStore.nextStamp()
        let leave = try #require(
            ShareMembership.signedLeave(
                zone: zone, stamp: stamp, identity: joiner.identity, library: joiner.library))
        let again = ShareMembership.signedLeave(
            zone: zone, stamp: stamp, identity: joiner.identity, library: joiner.library)
        #expect(again?.encoded == leave.encoded && leave.stamp == stamp)
        func tell() -> (JoinResponse, [[UInt8]]) {
            var pushed: [[UInt8]] = []
            let answer = JoinHandler.leave(
                ZoneNotice(type: .leaveNotice, zone: zone, operation: leave.encoded), by: device,
                person: joiner.list, library: owner.library
            ) { _, operations in pushed += operations }
            return (answer, pushed)
        }
        #expect(tell() == (.refused(code: .left, message: "you left share \(zone)"), [leave.encoded]))
        #expect(try owner.library.privateStore.participant(zone: zone, peer: device)?.status == .removed)

        try owner.library.privateStore.invite(zone: zone, member: device, permission: .readOnly)
        _ = MembershipIssuer(library: owner.library, identity: owner.identity).reconcile { _, error in
            Issue.record("reconcile failed: \(error)")
        }
        let invited = try Self.log(of: zone, in: owner)
        #expect(invited.state?.participants[entry]?.status == .pending)
        let (answer, pushed) = tell()
        #expect(answer == .refused(code: .left, message: "you left share \(zone)"))
        #expect(pushed.isEmpty)
        #expect(try owner.library.privateStore.participant(zone: zone, peer: device)?.status == .pending)
        let told = try Self.log(of: zone, in: owner)
        #expect(told.operations.count == invited.operations.count)
        #expect(told.state?.participants[entry]?.status == .pending)

        // Declining the new invitation: a leave signed after it ends it.
        let (_, declined, later) = Self.leave(zone, as: joiner, to: owner)
        #expect(declined == [later.encoded])
        #expect(try owner.library.privateStore.participant(zone: zone, peer: device)?.status == .removed)
        #expect(try Self.log(of: zone, in: owner).state?.participants[entry]?.status == .removed)
    }

    /// A device joined a public share by its URL token through a member while the owner was
    /// away, and the member went away before the log holding the accept it kept reached the
    /// device. The device shows the owner the accepts it kept from the join (without the
    /// token first, as signed), and the owner ratifies the join: the one with the token takes
    /// effect. A new accept without the token, all the device had to show before, is refused:
    /// nothing invites its person.
    @Test func aTokenJoinAMemberAdmittedIsRatifiedWithTheAcceptsTheJoinerKept() throws {
        let owner = try Device()
        let joiner = try Device()
        let (zone, token) = try Self.share(by: owner, publicPermission: .readOnly, inviting: nil)
        let accepts = JoinAccepts.sign(
            zone: zone, token: token, identity: joiner.identity, library: joiner.library,
            after: owner.library.privateStore.nextStamp())
        try joiner.library.sharedStore.keepJoinAccepts(accepts.reversed(), zone: zone)
        func ratify(_ shown: [MembershipOperation]) -> (JoinResponse, [[UInt8]]) {
            var published: [[UInt8]] = []
            let answer = JoinHandler.respond(
                to: ShareMembership.ratification(zone: zone, accepts: shown), from: joiner.identity.peerID,
                person: joiner.list, library: owner.library
            ) { _, operations in published += operations }
            return (answer, published)
        }

        let fresh = try #require(
            JoinAccepts.withoutToken(zone: zone, identity: joiner.identity, library: joiner.library))
        let (refused, none) = ratify([fresh])
        if case .accepted = refused { Issue.record("an accept without the token was ratified: \(refused)") }
        #expect(none.isEmpty)

        let shown = MemberAdmission.ratificationAccepts(
            of: zone, identity: joiner.identity, library: joiner.library)
        #expect(shown.map(\.encoded) == accepts)
        let (answer, published) = ratify(shown)
        #expect(answer == .accepted(title: "Holidays", permission: .readOnly))
        #expect(published == [accepts[1]])
        #expect(try Self.log(of: zone, in: owner).state?.participants[joiner.person]?.status == .accepted)
    }

    /// The device a member admitted while the owner was away left, and its leave reached the
    /// owner first (ending its person's invitation); then the member relays the device's
    /// accept, made before the leave. The owner does not admit the device, but keeps the
    /// accept, which its log takes before the leave: the member's log and the owner's hold the
    /// same operations (found by `MembershipScheduleTests` with kills, seed 1728).
    @Test func anAcceptRelayedAfterItsDevicesLeaveIsKeptThoughTheDeviceIsNotAdmitted() throws {
        let owner = try Device()
        let joiner = try Device()
        let invited = try #require(PeerID(digest: joiner.person.bytes))
        let (zone, _) = try Self.share(by: owner, publicPermission: .none, inviting: invited)
        // A person's accept names no token (the first of the two a join signs).
        let accepts = Array(
            JoinAccepts.sign(
                zone: zone, token: "-", identity: joiner.identity, library: joiner.library,
                after: owner.library.privateStore.nextStamp()
            ).prefix(1))
        // The leave comes after the accept, as the device signed them.
        _ = owner.library.privateStore.moveClock(past: try MembershipOperation(decoding: accepts[0]).stamp)
        let (_, _, leave) = Self.leave(zone, as: joiner, to: owner)
        #expect(try owner.library.privateStore.participant(zone: zone, peer: invited)?.status == .removed)

        let (answer, published) = Self.respond(
            owner, zone: zone, token: "", accepts: accepts, from: joiner, relayed: true)
        if case .accepted = answer { Issue.record("a device that left was admitted again: \(answer)") }
        #expect(published.count == 1, "\(answer)")
        let log = try Self.log(of: zone, in: owner)
        #expect(log.contains(try MembershipOperation(decoding: accepts[0]).hash))
        #expect(log.contains(leave.hash))
        #expect(log.state?.participants[joiner.person]?.status == .removed)
        #expect(try owner.library.privateStore.participant(zone: zone, peer: invited)?.status == .removed)
        #expect(try owner.library.privateStore.participant(zone: zone, peer: joiner.identity.peerID) == nil)

        // Not relayed (the device itself asking to join again), nothing is kept.
        let before = log.operations.count
        let again = Array(
            JoinAccepts.sign(
                zone: zone, token: "-", identity: joiner.identity, library: joiner.library,
                after: owner.library.privateStore.nextStamp()
            ).prefix(1))
        let (direct, pushed) = Self.respond(owner, zone: zone, token: "", accepts: again, from: joiner)
        if case .accepted = direct { Issue.record("a device that left was admitted again: \(direct)") }
        #expect(pushed.isEmpty)
        #expect(try Self.log(of: zone, in: owner).operations.count == before)
    }

    @Test func aJoinerWhoseClockIsBehindSignsAgainAfterTheOwnersClockAndEndsAccepted() throws {
        let owner = try Device()
        // An hour behind the owner's wall clock.
        let behind = try Device(
            clock: HybridLogicalClock { HybridLogicalClock.wallMilliseconds() - 3_600_000 })
        let (zone, token) = try Self.share(
            by: owner, publicPermission: .none, inviting: behind.identity.peerID)
        let early = JoinAccepts.sign(
            zone: zone, token: token, identity: behind.identity, library: behind.library)
        let (first, none) = Self.respond(owner, zone: zone, token: token, accepts: early, from: behind)
        guard case .acceptTooEarly(let clock) = first else {
            Issue.record("an accept dated before its invitation was answered \(first)")
            return
        }
        #expect(none.isEmpty)
        #expect(
            try owner.library.privateStore.participant(zone: zone, peer: behind.identity.peerID)?.status
                == .pending)
        let again = JoinAccepts.sign(
            zone: zone, token: token, identity: behind.identity, library: behind.library, after: clock)
        let (second, published) = Self.respond(owner, zone: zone, token: token, accepts: again, from: behind)
        #expect(second == .accepted(title: "Holidays", permission: .readWrite))
        #expect(published == [again[0]])
        let invited = PersonID(digest: behind.identity.peerID.bytes)!
        #expect(try Self.log(of: zone, in: owner).state?.participants[invited]?.status == .accepted)
    }
}
