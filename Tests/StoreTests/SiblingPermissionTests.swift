import TestSupport
import Testing

@testable import Store

/// Another device of this library's person (a sibling) may do in each zone exactly what this
/// device may: everything in the default zone, its own permission in a share taken part in;
/// any other device nothing more than before.
@Suite struct SiblingPermissionTests {
    @Test func aSiblingMayDoWhatThisDeviceMayAndNobodyElseGainsAnything() throws {
        let pair = try SharedPair(permission: .readOnly)
        let sibling = try TestLibrary().peer
        let stranger = try TestLibrary().peer
        func permission(_ peer: PeerID, _ store: LibraryStore, _ zone: String) throws -> Permission {
            try store.read { db in try store.permission(of: peer, in: zone, db) }
        }
        let owner = pair.owner.priv
        let participant = pair.participant.shared
        #expect(try permission(sibling, owner, LibraryStore.defaultZone) == .none, "not a sibling yet")
        owner.setSiblings([sibling, pair.owner.peer])
        participant.setSiblings([sibling])
        #expect(try permission(sibling, owner, LibraryStore.defaultZone) == .readWrite)
        #expect(try permission(sibling, owner, pair.zone) == .readWrite, "the owner's device may do anything")
        #expect(try permission(sibling, participant, pair.zone) == .readOnly, "as the read-only participant")
        #expect(try permission(stranger, owner, LibraryStore.defaultZone) == .none)
        #expect(try permission(stranger, participant, pair.zone) == .none)
        #expect(!owner.isSibling(pair.owner.peer), "this device is not its own sibling")
        owner.setSiblings([])
        #expect(
            try permission(sibling, owner, LibraryStore.defaultZone) == .none, "a device taken off the list")
    }
}
