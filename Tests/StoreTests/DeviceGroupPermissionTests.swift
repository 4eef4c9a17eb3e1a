import TestSupport
import Testing

@testable import Store

/// A person acts through each of its current devices: another device of this library's
/// person (a sibling) may do what this device may, any current device of a share's owner
/// person speaks for the owner, and another device of a participant's person uses the
/// participant's record. A list naming a device gives that device the person's rights,
/// never the other way round, and a device taken off its list loses them.
@Suite struct DeviceGroupPermissionTests {
    private func permission(_ peer: PeerID, _ store: LibraryStore, _ zone: String) throws -> Permission {
        try store.read { db in try store.permission(of: peer, in: zone, db) }
    }

    private func person() -> PersonID { PersonID(digest: (0..<32).map { _ in UInt8.random(in: 0...255) })! }

    @Test func aSiblingMayDoWhatThisDeviceMayAndNobodyElseGainsAnything() throws {
        let pair = try SharedPair(permission: .readOnly)
        let sibling = try TestLibrary().peer
        let stranger = try TestLibrary().peer
        let owner = pair.owner.priv
        let participant = pair.participant.shared
        let alice = person()
        let bob = person()
        #expect(try permission(sibling, owner, LibraryStore.defaultZone) == .none, "not a sibling yet")
        owner.setDeviceGroups(DeviceGroups(local: alice, current: [alice: [pair.owner.peer, sibling]]))
        participant.setDeviceGroups(
            DeviceGroups(local: bob, current: [bob: [pair.participant.peer, sibling]]))
        #expect(try permission(sibling, owner, LibraryStore.defaultZone) == .readWrite)
        #expect(try permission(sibling, owner, pair.zone) == .readWrite, "the owner's device may do anything")
        #expect(try permission(sibling, participant, pair.zone) == .readOnly, "as the read-only participant")
        #expect(try permission(stranger, owner, LibraryStore.defaultZone) == .none)
        #expect(try permission(stranger, participant, pair.zone) == .none)
        #expect(!owner.isSibling(pair.owner.peer), "this device is not its own sibling")
        owner.setDeviceGroups(DeviceGroups(local: alice, current: [alice: [pair.owner.peer]]))
        #expect(
            try permission(sibling, owner, LibraryStore.defaultZone) == .none, "a device taken off the list")
    }

    @Test func everyCurrentDeviceOfTheOwnersPersonSpeaksForTheOwner() throws {
        let pair = try SharedPair(permission: .readOnly)
        let laptop = try TestLibrary().peer
        let alice = person()
        try pair.owner.priv.claimOwnedShares(for: alice)
        try sync(pair.zone, from: pair.owner.priv, to: pair.participant.shared)
        let participant = pair.participant.shared
        #expect(try permission(laptop, participant, pair.zone) == .none, "the owner's list is not known yet")
        participant.setDeviceGroups(DeviceGroups(current: [alice: [pair.owner.peer, laptop]]))
        #expect(try permission(laptop, participant, pair.zone) == .readWrite)
        #expect(try participant.speaksForOwner(laptop, in: pair.zone))
        // Removed from the owner's list: nothing any more, the creating device included.
        participant.setDeviceGroups(
            DeviceGroups(current: [alice: [laptop]], ever: [alice: [pair.owner.peer, laptop]]))
        #expect(try permission(pair.owner.peer, participant, pair.zone) == .none)
        #expect(try !participant.speaksForOwner(pair.owner.peer, in: pair.zone))
    }

    @Test func anotherDeviceOfAParticipantUsesItsRecordButAListGivesNoOneElsesRights() throws {
        let pair = try SharedPair(permission: .readOnly)
        let bob = person()
        let evil = person()
        let phone = try TestLibrary().peer
        let mallory = try TestLibrary().peer
        let owner = pair.owner.priv
        try owner.notePerson(bob, of: pair.participant.peer)
        #expect(try permission(phone, owner, pair.zone) == .none)
        // Mallory's own list names the owner's and Bob's devices: they gain Mallory's
        // (no) rights; Mallory gains none of theirs.
        owner.setDeviceGroups(
            DeviceGroups(current: [
                bob: [pair.participant.peer, phone], evil: [mallory, pair.owner.peer, pair.participant.peer],
            ]))
        #expect(try permission(phone, owner, pair.zone) == .readOnly, "as Bob's record")
        #expect(try permission(mallory, owner, pair.zone) == .none)
        try owner.setParticipant(
            zone: pair.zone, peer: pair.participant.peer, permission: .readOnly, status: .removed)
        #expect(try permission(phone, owner, pair.zone) == .none, "Bob was removed")
    }
}
