import TestSupport
import Testing

@testable import Store

/// Why a peer no longer takes part in a share: what the owner tells a peer still holding a
/// copy.
@Suite struct MembershipEndTests {
    @Test func aStoppedShareOrARemovedParticipantEndsTheMembershipAndAnInvitationRenewsIt() throws {
        let owner = try TestLibrary()
        let participant = randomPeer()
        let photo = try owner.addPhoto("beach.jpg")
        let zone = try owner.priv.createShare(photo: photo, title: "Beach", publicPermission: .none)
        #expect(try owner.priv.membershipEnd(zone: zone, peer: participant) == .removed, "never invited")
        try owner.priv.setParticipant(zone: zone, peer: participant, permission: .readOnly, status: .accepted)
        #expect(try owner.priv.membershipEnd(zone: zone, peer: participant) == nil)
        try owner.priv.setParticipant(zone: zone, peer: participant, status: .removed)
        #expect(try owner.priv.membershipEnd(zone: zone, peer: participant) == .removed)
        try owner.priv.setParticipant(zone: zone, peer: participant, status: .pending)
        #expect(try owner.priv.membershipEnd(zone: zone, peer: participant) == nil)
        try owner.priv.stopShare(zone, purge: false)
        #expect(try owner.priv.membershipEnd(zone: zone, peer: participant) == .stopped)
        #expect(try owner.priv.membershipEnd(zone: LibraryStore.defaultZone, peer: participant) == nil)
        #expect(try owner.priv.membershipEnd(zone: "not-a-zone", peer: participant) == nil)
    }
}
