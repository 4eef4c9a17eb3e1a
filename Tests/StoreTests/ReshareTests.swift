import Testing

@testable import Store

/// A photo shared again after its share was stopped (without purge) reaches a participant
/// that still held the stopped copy, whatever order the participant syncs the two zones in.
@Suite struct ReshareTests {
    /// The owner stops the pair's share and shares the same photo again with the same
    /// participant, which has heard of neither yet. Returns the new zone.
    static func stopAndReshare(_ pair: SharedPair) throws -> String {
        try pair.owner.priv.stopShare(pair.zone, purge: false)
        let zone = try pair.owner.priv.createShare(photo: pair.photo, title: "Again", publicPermission: .none)
        try pair.owner.priv.setParticipant(
            zone: zone, peer: pair.participant.peer, permission: .readWrite, status: .accepted)
        try pair.participant.shared.prepareParticipantZone(zone, owner: pair.owner.peer)
        return zone
    }

    @Test func theStoppedCopyPurgedFirstThenTheNewShare() throws {
        let pair = try SharedPair()
        let zone = try Self.stopAndReshare(pair)
        let store = pair.participant.shared
        try sync(pair.zone, from: pair.owner.priv, to: store)
        try store.purge(zone: pair.zone)
        let reports = try sync(zone, from: pair.owner.priv, to: store)
        #expect(reports.flatMap(\.refused).isEmpty)
        #expect(try store.photos(zone: zone).map(\.id) == [pair.photo])
        #expect(try store.canonicalDump(zone: zone) == pair.owner.priv.canonicalDump(zone: zone))
    }

    @Test func theNewShareFirstThenTheStoppedCopyPurged() throws {
        let pair = try SharedPair()
        let zone = try Self.stopAndReshare(pair)
        let store = pair.participant.shared
        // On reconnection the participant happens to sync the new zone first…
        let first = try sync(zone, from: pair.owner.priv, to: store)
        // …then learns of the stop and purges the old copy, as its daemon does.
        try sync(pair.zone, from: pair.owner.priv, to: store)
        #expect(try store.share(pair.zone)?.stopped == true)
        try store.purge(zone: pair.zone)
        try sync(zone, from: pair.owner.priv, to: store)

        #expect(
            try store.photos(zone: zone).map(\.id) == [pair.photo],
            "refused on first contact: \(first.flatMap(\.refused))")
        #expect(try store.photo(pair.photo)?.tags.map(\.name) == ["summer"])
        #expect(try store.canonicalDump(zone: zone) == pair.owner.priv.canonicalDump(zone: zone))
    }
}
