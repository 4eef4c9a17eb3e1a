import Testing

@testable import Store

/// Issue 10 item 1: a change the owner refuses is undone on its author, so replicas never
/// stay apart. The owner reports what it refused with its own version of each object; the
/// author takes that version (`undoRefused`).
@Suite struct RefusalUndoTests {
    /// The owner applies everything the participant has, then the participant undoes what
    /// the owner refused; returns the refusals.
    @discardableResult
    static func exchange(_ pair: SharedPair) throws -> [Refusal] {
        let (owner, participant, zone) = (pair.owner.priv, pair.participant.shared, pair.zone)
        var refused: [Refusal] = []
        for set in try participant.changes(zone: zone, since: try owner.clock(of: zone)) {
            let report = try owner.apply(set, from: participant.localPeer)
            let versions = try owner.currentVersions(
                zone: zone, of: report.refused.map { ($0.entity, $0.id) })
            if !report.refused.isEmpty {
                try participant.undoRefused(
                    zone: zone, refusals: report.refused, versions: versions, authority: owner.localPeer)
            }
            refused += report.refused
        }
        try sync(zone, from: owner, to: participant)
        return refused
    }

    /// Lowers the participant to read-only at the owner, without telling it yet.
    static func lower(_ pair: SharedPair) throws {
        try pair.owner.priv.setParticipant(
            zone: pair.zone, peer: pair.participant.peer, permission: .readOnly, status: .accepted)
    }

    @Test func aTagMadeOfflineAfterLosingWriteAccessIsUndoneOnItsAuthor() throws {
        let pair = try SharedPair()
        let (owner, participant, zone) = (pair.owner.priv, pair.participant.shared, pair.zone)
        let before = try participant.lastHistoryToken()
        _ = try participant.tag(photo: pair.photo, name: "night")
        try Self.lower(pair)

        let refused = try Self.exchange(pair)
        #expect(Set(refused.map(\.entity)) == [.tag, .link])
        #expect(refused.allSatisfy { $0.reason.contains("may not write to this share") })
        #expect(try participant.photo(pair.photo)?.tags.map(\.name) == ["summer"])
        #expect(try participant.tags(zone: zone).map(\.name) == ["summer"])
        #expect(try participant.canonicalDump(zone: zone) == owner.canonicalDump(zone: zone))
        // The author is told in its history, as the undo's own transaction.
        let undo = try #require(
            try participant.history(since: before).first { $0.author.hasPrefix("refused:") })
        #expect(undo.author == "refused:\(owner.localPeer)")
        #expect(Set(undo.changes.map(\.entity)) == ["tag", "photo_tag"])
        #expect(undo.changes.allSatisfy { $0.type == .delete })
    }

    /// A refusal for want of permission is judged by the refusing side's records of the
    /// author, which its notice carries: an author holding a newer version of them (another
    /// device of the owner raised its permission again, and the refusing device has not heard
    /// of it) can tell they were behind; one holding the same or an older version cannot.
    @Test func theRecordsARefusalForWantOfPermissionWasJudgedByShowWhetherTheyWereBehind() throws {
        let pair = try SharedPair()
        let (owner, participant, zone) = (pair.owner.priv, pair.participant.shared, pair.zone)
        _ = try participant.tag(photo: pair.photo, name: "night")
        try Self.lower(pair)
        let reports = try participant.changes(zone: zone, since: try owner.clock(of: zone)).map {
            try owner.apply($0, from: participant.localPeer)
        }
        let refused = reports.flatMap(\.refused)
        #expect(!refused.isEmpty && refused.allSatisfy(\.forWantOfPermission), "\(refused)")
        let judged = try owner.recordsJudging(author: participant.localPeer, zone: zone)
        #expect(judged.map(\.id) == [LibraryStore.participantID(zone: zone, peer: participant.localPeer)])
        #expect(try !participant.holdsNewerRecords(than: judged, zone: zone), "its own record is older")
        try sync(zone, from: owner, to: participant)
        #expect(try !participant.holdsNewerRecords(than: judged, zone: zone), "the same record")

        // Raised again (as the owner's other device would), and the participant holds that.
        try owner.setParticipant(
            zone: zone, peer: participant.localPeer, permission: .readWrite, status: .accepted)
        try sync(zone, from: owner, to: participant)
        #expect(try participant.holdsNewerRecords(than: judged, zone: zone))
    }

    @Test func aRenameAndADeleteAreUndoneToTheOwnersVersionIncludingNewerEdits() throws {
        let pair = try SharedPair()
        let (owner, participant, zone) = (pair.owner.priv, pair.participant.shared, pair.zone)
        let second = try pair.addSharedPhoto("second.jpg")
        try participant.renamePhoto(pair.photo, to: "participant's name")
        try participant.deletePhoto(second)
        try Self.lower(pair)
        // Meanwhile the owner renames the photo the participant deleted.
        try owner.renamePhoto(second, to: "owner's name")

        let refused = try Self.exchange(pair)
        #expect(refused.contains { $0.entity == .photo && $0.id == pair.photo })
        #expect(refused.contains { $0.entity == .photo && $0.id == second })
        #expect(try participant.photo(pair.photo)?.name == "beach.jpg")
        #expect(try participant.photo(second)?.name == "owner's name")
        #expect(try participant.photo(second)?.tags.map(\.name) == owner.photo(second)?.tags.map(\.name))
        #expect(try participant.canonicalDump(zone: zone) == owner.canonicalDump(zone: zone))
    }

    @Test func aRefusedChangeIsNotClaimedSoItIsSentAgainUntilItsAuthorUndoesIt() throws {
        // A refusal notice can be lost with its connection (a duplicate replaced, a cut): the
        // owner's clock must not claim the refused change, or the author never hears again.
        let pair = try SharedPair()
        let (owner, participant, zone) = (pair.owner.priv, pair.participant.shared, pair.zone)
        _ = try participant.tag(photo: pair.photo, name: "night")
        try Self.lower(pair)
        let sets = try participant.changes(zone: zone, since: try owner.clock(of: zone))
        let refusedStamp = try #require(sets.flatMap(\.objects).flatMap(\.fields).map(\.stamp.hlc).min())
        let report = try owner.apply(sets[0], from: participant.localPeer)
        #expect(report.refused.count == 2)
        #expect(report.clockOnly, "nothing committed, yet the clock moved: relays are told")
        #expect(try owner.clock(of: zone)[participant.localPeer] < refusedStamp)
        // The notice was lost: the next anti-entropy sends the change again, and it is refused
        // again (the notice goes out again).
        let again = try participant.changes(zone: zone, since: try owner.clock(of: zone))
        #expect(again.flatMap(\.objects).count == 2)
        // Once the author has undone it, the next round carries only its clock, and the clocks agree.
        _ = try Self.exchange(pair)
        #expect(try Self.exchange(pair).isEmpty)
        #expect(try participant.clock(of: zone) == owner.clock(of: zone))
        #expect(try participant.canonicalDump(zone: zone) == owner.canonicalDump(zone: zone))
    }

    @Test func aFieldWrittenAgainSinceTheRefusedChangeIsNotUndoneByAnOldRefusal() throws {
        let pair = try SharedPair()
        let (owner, participant, zone) = (pair.owner.priv, pair.participant.shared, pair.zone)
        try participant.renamePhoto(pair.photo, to: "first")
        let sets = try participant.changes(zone: zone, since: try owner.clock(of: zone))
        try Self.lower(pair)
        let report = try owner.apply(sets[0], from: participant.localPeer)
        #expect(report.refused.count == 1)
        // Before the refusal arrives, the participant (read-write again, say) renamed again.
        try participant.renamePhoto(pair.photo, to: "second")
        try participant.undoRefused(
            zone: zone, refusals: report.refused,
            versions: try owner.currentVersions(zone: zone, of: [(.photo, pair.photo)]),
            authority: owner.localPeer)
        #expect(try participant.photo(pair.photo)?.name == "second")
    }
}
