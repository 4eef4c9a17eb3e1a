import TestSupport
import Testing

@testable import Store

/// Issue 10 item 2: stamps far ahead of the receiver's clock split replicas (a participant's
/// rename stamped in the year 3000 beat every later rename; a stamp of 2^64−1 was applied and
/// never forwarded). Now such changes are refused at the owner and not claimed by its clock,
/// no stamp can overflow, and a local write is always stamped above what it overwrites.
@Suite struct FutureStampTests {
    static let year3000: UInt64 = 32_503_680_000_000

    /// A set from `author` renaming `photo` to `name` with a stamp of `hlc`.
    static func rename(
        _ photo: String, to name: String, zone: String, by author: PeerID, hlc: UInt64
    ) -> ChangeSet {
        let stamp = Stamp(hlc: hlc, peer: author)
        return ChangeSet(
            zone: zone, since: VectorClock(), until: VectorClock([author: hlc]),
            objects: [
                ObjectChange(
                    entity: .photo, id: photo,
                    fields: [FieldChange(field: PhotoField.name, value: .text(name), stamp: stamp)])
            ])
    }

    @Test func aParticipantsRenameStampedInTheYear3000IsRefusedAndLaterRenamesWin() throws {
        let pair = try SharedPair()
        let tampered = try pair.addParticipant(permission: .readWrite)
        let owner = pair.owner.priv
        let before = try owner.clock(of: pair.zone)[tampered.peer]
        let set = Self.rename(
            pair.photo, to: "from the future", zone: pair.zone, by: tampered.peer, hlc: Self.year3000 << 16)

        let report = try owner.apply(set, from: tampered.peer)
        #expect(report.refused.count == 1)
        #expect(report.refused.first?.reason.hasPrefix("stamped ") == true)
        #expect(
            report.refused.first?.reason.contains("ahead of this peer's clock (more than the 60 min allowed)")
                == true)
        #expect(try owner.photo(pair.photo)?.name == "beach.jpg")
        // Not claimed: should the author fix its clock, what it writes next is taken.
        #expect(try owner.clock(of: pair.zone)[tampered.peer] == before)

        // The owner renames; the other participant gets the owner's name, never the refused one.
        try owner.renamePhoto(pair.photo, to: "owner's name")
        try sync(pair.zone, from: owner, to: pair.participant.shared)
        #expect(try pair.participant.shared.photo(pair.photo)?.name == "owner's name")
        let relayed = try owner.changes(zone: pair.zone, since: VectorClock()).flatMap(\.objects)
        #expect(!relayed.contains { $0.fields.contains { $0.value == .text("from the future") } })
    }

    @Test func theHighestStampIsRefusedEverywhereAndNothingOverflows() throws {
        let pair = try SharedPair()
        let tampered = try pair.addParticipant(permission: .readWrite)
        let max = Self.rename(pair.photo, to: "max", zone: pair.zone, by: tampered.peer, hlc: .max)
        #expect(try pair.owner.priv.apply(max, from: tampered.peer).refused.count == 1)
        // A participant takes what the owner relays, but not a stamp no clock can reach.
        let fromOwner = Self.rename(pair.photo, to: "max", zone: pair.zone, by: pair.owner.peer, hlc: .max)
        let refused = try pair.participant.shared.apply(fromOwner, from: pair.owner.peer).refused
        #expect(refused.map(\.reason) == ["invalid stamp \(UInt64.max) by \(pair.owner.peer.short)"])
        // The owner's own clock did not move to it: it still stamps and renames normally.
        try pair.owner.priv.renamePhoto(pair.photo, to: "after")
        try sync(pair.zone, from: pair.owner.priv, to: pair.participant.shared)
        #expect(try pair.participant.shared.photo(pair.photo)?.name == "after")
    }

    @Test func aLocalWriteIsStampedAboveWhatItOverwritesAfterARestartWithTheClockSetBack() throws {
        let start = HybridLogicalClock.wallMilliseconds()
        let directory = try TestDirectory()
        let peer = randomPeer()
        let first = try Library(
            directory: directory.path + "/state", localPeer: peer,
            clock: HybridLogicalClock(now: { start }))
        let photo = try first.privateStore.addPhoto(
            zone: LibraryStore.defaultZone, name: "a", data: try first.privateStore.blobs.store([1]),
            thumbnail: nil, tags: [])
        let written = try Self.nameStamp(first.privateStore, photo)
        first.close()

        // Ten minutes back: the restarted clock must still stamp above what the store holds.
        let behind = start - 600_000
        let second = try Library(
            directory: directory.path + "/state", localPeer: peer, clock: HybridLogicalClock(now: { behind }))
        defer { second.close() }
        try second.privateStore.renamePhoto(photo, to: "b")
        #expect(try Self.nameStamp(second.privateStore, photo) > written)
        #expect(try second.privateStore.photo(photo)?.name == "b")
    }

    @Test func aLocalWriteOverAnOwnersStampTooFarAheadIsRefusedNotLost() throws {
        let pair = try SharedPair()
        let participant = pair.participant.shared
        let ahead = (HybridLogicalClock.wallMilliseconds() + 3 * 3_600_000) << 16
        let set = Self.rename(pair.photo, to: "owner ahead", zone: pair.zone, by: pair.owner.peer, hlc: ahead)
        #expect(try participant.apply(set, from: pair.owner.peer).refused.isEmpty)
        #expect(try participant.photo(pair.photo)?.name == "owner ahead")
        #expect(throws: StoreError.self) { try participant.renamePhoto(pair.photo, to: "mine") }
        do {
            try participant.renamePhoto(pair.photo, to: "mine")
        } catch let error as StoreError {
            #expect(error.code == "clock_behind")
            #expect(error.description.contains("ahead of this device's clock; check the system clock"))
        }
        #expect(try participant.photo(pair.photo)?.name == "owner ahead")
    }

    static func nameStamp(_ store: LibraryStore, _ photo: String) throws -> Stamp {
        let fields = try store.changes(zone: LibraryStore.defaultZone, since: VectorClock()).flatMap(
            \.objects
        )
        .first { $0.id == photo }?.fields
        return try #require(fields?.first { $0.field == PhotoField.name.code }?.stamp)
    }
}
