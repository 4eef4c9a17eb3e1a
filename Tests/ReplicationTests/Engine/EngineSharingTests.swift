import Store
import Support
import TestSupport
import Testing

@testable import Replication

/// Sharing as the engine runs it on its own, with no daemon around it: joining by URL,
/// leaving (the owner is told), and purging a copy whose membership ended while the owner
/// could not say so on a connection (docs/PROTOCOL.md §10).
@Suite struct EngineSharingTests {
    /// Shares a photo of `owner` with `participant`, whose store records where the owner
    /// listens (as accepting a URL does), and waits until the photo has arrived.
    private static func sharedPhoto(
        _ owner: EnginePeer, _ participant: EnginePeer
    ) async throws -> (zone: String, photo: String) {
        let shared = try shareZone(owner: owner, with: [participant])
        try participant.shared.prepareParticipantZone(
            shared.zone, owner: owner.peer, address: owner.address.description)
        #expect(await eventually { try participant.shared.photo(shared.photo) != nil })
        return shared
    }

    @Test func acceptJoinsTheShareAndReplicationBringsIt() async throws {
        let owner = try EnginePeer("owner")
        let participant = try EnginePeer("participant")
        let photo = try owner.addPhoto("beach.jpg", bytes: Array("pixels".utf8), tags: ["summer"])
        let zone = try owner.priv.createShare(photo: photo, title: "Holidays", publicPermission: .readOnly)
        let url = ShareURL(
            host: owner.address.host, port: owner.address.port, zone: zone, owner: owner.peer,
            token: try owner.library.currentInvitation(zone: zone).token)
        let engine = participant.engine
        let joined = try await IOThread.run { try engine.accept(url) }
        #expect(joined == ShareJoiner.Joined(zone: zone, title: "Holidays", permission: .readOnly))
        #expect(await eventually { try participant.shared.photo(photo)?.tags.map(\.name) == ["summer"] })
        #expect(try owner.priv.participant(zone: zone, peer: participant.peer)?.status == .accepted)
        #expect(participant.logged("joined share \(zone)"))
        let again = try await IOThread.run {
            Result { () throws(AcceptError) -> ShareJoiner.Joined in try engine.accept(url) }
        }
        #expect(again == .failure(.alreadyMember(zone: zone)))
    }

    @Test func leavingPurgesTheCopyAndTheOwnerIsTold() async throws {
        let owner = try EnginePeer("owner")
        let participant = try EnginePeer("participant")
        let (zone, photo) = try await Self.sharedPhoto(owner, participant)
        try participant.engine.leave(zone: zone)
        #expect(try participant.shared.photo(photo) == nil)
        #expect(try !participant.shared.zones().contains { $0.id == zone })
        #expect(
            await eventually {
                try owner.priv.participant(zone: zone, peer: participant.peer)?.status == .removed
            })
        #expect(await eventually { try participant.shared.pendingDepartures().isEmpty })
        #expect(
            await eventually { participant.logged("told the owner this peer left the share (zone \(zone))") })
    }

    /// The owner cannot tell the participant on a connection (it paused replication with it):
    /// `sync` on the participant asks the owner, which answers `removed`, and the copy goes.
    @Test func aCopyWhoseMembershipEndedWhileCutOffIsPurgedOnTheOwnersAnswer() async throws {
        let owner = try EnginePeer("owner")
        let participant = try EnginePeer("participant")
        let (zone, photo) = try await Self.sharedPhoto(owner, participant)
        owner.engine.pause(participant.peer)
        #expect(await eventually { !owner.engine.status(of: participant.peer).connected })
        try owner.priv.setParticipant(zone: zone, peer: participant.peer, status: .removed)
        participant.engine.syncNow()
        #expect(await eventually { try !participant.shared.zones().contains { $0.id == zone } })
        #expect(try participant.shared.photo(photo) == nil)
        // The purge commits before its log line is written.
        #expect(
            await eventually {
                participant.logged(
                    "purged this peer's copy of a share: the owner removed you from share \(zone) (zone \(zone))"
                )
            })
    }
}
