import Store
import TestSupport
import Testing

@testable import Replication

@Suite struct EngineUnitTests {
    static func peer(_ n: UInt8) -> PeerID { PeerID(digest: [UInt8](repeating: n, count: 32))! }

    @Test(arguments: [
        (1, 0.5, 1_000), (2, 0.5, 2_000), (3, 0.5, 4_000), (7, 0.5, 60_000), (50, 0.5, 60_000),
        (1, 0.0, 750), (1, 1.0, 1_250), (4, 1.0, 10_000),
    ])
    func backoffDoublesUpToTheMaximumWithJitter(attempt: Int, unit: Double, milliseconds: Int) {
        let backoff = Backoff(base: .seconds(1), maximum: .seconds(60), jitter: 0.25)
        #expect(backoff.delay(attempt: attempt, unit: unit) == .milliseconds(milliseconds))
    }

    /// (existing dialer, new dialer) → keep the new one, for local = 1, remote = 2.
    @Test(arguments: [(1, 1, true), (2, 2, true), (2, 1, true), (1, 2, false)])
    func tieBreakKeepsTheSameConnectionAtBothEnds(existing: UInt8, new: UInt8, keepsNew: Bool) {
        let (small, large) = (Self.peer(1), Self.peer(2))
        #expect(
            ConnectionTieBreak.keepsNew(
                existingDialer: Self.peer(existing), newDialer: Self.peer(new), local: small, remote: large)
                == keepsNew)
        // The other end, seeing the same two connections arrive in either order, agrees.
        #expect(
            ConnectionTieBreak.keepsNew(
                existingDialer: Self.peer(existing), newDialer: Self.peer(new), local: large, remote: small)
                == keepsNew)
    }

    @Test func membershipReadsOwnersParticipantsAndAdmission() throws {
        let owner = try TestLibrary()
        let accepted = Self.peer(7)
        let pending = Self.peer(8)
        let removed = Self.peer(9)
        let photo = try owner.addPhoto("p.jpg", bytes: [1], tags: [])
        let zone = try owner.library.privateStore.createShare(
            photo: photo, title: "t", publicPermission: .none)
        try owner.library.privateStore.setParticipant(
            zone: zone, peer: accepted, permission: .readOnly, status: .accepted)
        try owner.library.privateStore.setParticipant(
            zone: zone, peer: pending, permission: .readOnly, status: .pending)
        try owner.library.privateStore.setParticipant(
            zone: zone, peer: removed, permission: .readOnly, status: .removed)
        let otherOwner = Self.peer(3)
        try owner.library.sharedStore.prepareParticipantZone("their-zone", owner: otherOwner)
        let membership = try Membership.load(from: owner.library)
        #expect(membership.zones(with: accepted) == [.init(zone: zone, store: .private, localIsOwner: true)])
        #expect(membership.zones(with: pending).isEmpty)
        #expect(
            membership.zones(with: otherOwner) == [
                .init(zone: "their-zone", store: .shared, localIsOwner: false, peerIsOwner: true)
            ])
        #expect(membership.admitted == [accepted, pending, otherOwner])
        #expect(membership.owners == [otherOwner])
        // A pending participant may connect (to accept), but is not dialed: nothing is
        // replicated with it yet, and one that left before its new invitation would refuse
        // the owner as a stranger.
        #expect(membership.dials(accepted) && membership.dials(otherOwner))
        #expect(!membership.dials(pending) && !membership.dials(removed))
    }

    @Test func inboxCoalescesCommitsAndPutsUrgentEventsFirst() {
        let inbox = Inbox(byteLimit: 100)
        inbox.post(.localCommit(zone: "z"))
        inbox.post(.tick)
        inbox.post(.localCommit(zone: "z"))
        inbox.postUrgent(.closeRequested(.paused, "now"))
        var taken: [String] = []
        for _ in 0..<3 {
            switch inbox.take() {
            case .localCommit(let zone): taken.append("commit \(zone)")
            case .tick: taken.append("tick")
            case .closeRequested: taken.append("close")
            default: taken.append("other")
            }
        }
        #expect(taken == ["close", "commit z", "tick"])
        inbox.close()
        #expect(inbox.take() == nil)
        #expect(inbox.postBytes([1]) == false)
    }

    @Test func inboxLetsGoOfReceivedBytesOnceTaken() {
        let inbox = Inbox(byteLimit: 1 << 20)
        var bytes = [UInt8](repeating: 7, count: 4_096)
        inbox.postBytes(bytes)
        inbox.post(.tick)
        guard case .bytes(let taken) = inbox.take() else {
            Issue.record("expected the bytes first")
            return
        }
        #expect(taken == bytes)
        _ = consume taken
        // Writing to a shared array copies it first: the same address means nothing else
        // (the inbox) still holds it.
        let before = bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        bytes[0] = 8
        let after = bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        #expect(before == after, "the inbox still holds the taken bytes")
    }
}
