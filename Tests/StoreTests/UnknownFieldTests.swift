import TestSupport
import Testing

@testable import Store

/// Issue 10 item 3: a field this version does not know, sent by a peer running a newer one,
/// is kept, replicated on and adopted after an upgrade — never refused while the clock
/// claims it, which lost it for good.
@Suite struct UnknownFieldTests {
    /// A photo caption as a newer version would send it: field code 9 of a photo.
    static let caption: UInt8 = 9

    /// A change set from `newer` renaming `photo` and setting its caption, in `zone`.
    static func newerRename(_ photo: String, zone: String, by newer: PeerID) -> ChangeSet {
        let stamp = stampAhead(of: newer)
        return ChangeSet(
            zone: zone, since: VectorClock(), until: VectorClock([newer: stamp.hlc]),
            objects: [
                ObjectChange(
                    entity: .photo, id: photo,
                    fields: [
                        FieldChange(field: PhotoField.name, value: .text("with caption"), stamp: stamp),
                        FieldChange(field: caption, value: .text("sunset over the bay"), stamp: stamp),
                    ])
            ])
    }

    @Test func aNewerPeersFieldIsKeptAndReplicatedOnWithItsObject() throws {
        let pair = try SharedPair()
        let newer = try pair.addParticipant(permission: .readWrite)
        let owner = pair.owner.priv
        let set = Self.newerRename(pair.photo, zone: pair.zone, by: newer.peer)

        let report = try owner.apply(set, from: newer.peer)
        #expect(report.refused.isEmpty)
        #expect(try owner.photo(pair.photo)?.name == "with caption")
        #expect(try owner.unknownFields(.photo, pair.photo) == [Self.caption: .text("sunset over the bay")])
        #expect(try owner.clock(of: pair.zone)[newer.peer] == set.until[newer.peer])

        // The owner relays it to another participant of this (older) version, who keeps it too,
        // and to a newer peer that joins later.
        try sync(pair.zone, from: owner, to: pair.participant.shared)
        #expect(try pair.participant.shared.photo(pair.photo)?.name == "with caption")
        #expect(
            try pair.participant.shared.unknownFields(.photo, pair.photo) == [
                Self.caption: .text("sunset over the bay")
            ])
        let sent = try owner.changes(zone: pair.zone, since: VectorClock()).flatMap(\.objects)
        let field = sent.first { $0.id == pair.photo }?.fields.first { $0.field == Self.caption }
        #expect(field?.value == .text("sunset over the bay"))
        #expect(field?.stamp == set.objects[0].fields[1].stamp)

        // Last writer wins for it as for any field; an older stamp changes nothing.
        var older = set
        older.objects[0].fields = [
            FieldChange(
                field: Self.caption, value: .text("stale"),
                stamp: Stamp(hlc: set.objects[0].fields[1].stamp.hlc - 1, peer: newer.peer))
        ]
        _ = try owner.apply(older, from: newer.peer)
        #expect(try owner.unknownFields(.photo, pair.photo)[Self.caption] == .text("sunset over the bay"))
    }

    @Test func keptFieldsGoWithTheirZoneAndAreBoundedInSize() throws {
        let pair = try SharedPair()
        let newer = try pair.addParticipant(permission: .readWrite)
        var set = Self.newerRename(pair.photo, zone: pair.zone, by: newer.peer)
        set.objects[0].fields[1] = FieldChange(
            field: Self.caption, value: .blob(Array(repeating: 1, count: (64 << 10) + 1)),
            stamp: set.objects[0].fields[1].stamp)
        let refused = try pair.owner.priv.apply(set, from: newer.peer).refused
        #expect(refused.map(\.reason) == ["unknown field 9 is over 65536 bytes"])

        _ = try pair.participant.shared.apply(
            Self.newerRename(pair.photo, zone: pair.zone, by: pair.owner.peer), from: pair.owner.peer)
        #expect(try pair.participant.shared.unknownFields(.photo, pair.photo).count == 1)
        try pair.participant.shared.purge(zone: pair.zone)
        #expect(try pair.participant.shared.unknownFields(.photo, pair.photo).isEmpty)
    }

    @Test func afterAnUpgradeKeptValuesOfFieldsNowKnownAreAdopted() throws {
        // A store written while this build did not know a photo's thumbnail (field 6) kept it
        // beside the row; opening it with a build that knows the field moves it in.
        let library = try TestLibrary()
        let photo = try library.addPhoto("old.jpg")
        let store = library.priv
        try store.write(author: .local) { tx in
            try tx.db.run("UPDATE photos SET thumbnail = NULL WHERE id = ?", photo)
            try LibraryStore.writeUnknownFields(
                .photo, photo, zone: LibraryStore.defaultZone,
                [(PhotoField.thumbnail.code, .blob([1, 2, 3]))],
                tx.db)
        }
        #expect(try store.photo(photo)?.thumbnailSize == 0)
        library.library.close()
        let reopened = try Library(directory: library.directory.path + "/state", localPeer: library.peer)
        defer { reopened.close() }
        #expect(try reopened.privateStore.photo(photo)?.thumbnailSize == 3)
        #expect(try reopened.privateStore.unknownFields(.photo, photo).isEmpty)
    }
}
