import TestSupport
import Testing

@testable import Store

/// Migration 19 (issue 17): a store written by schema 18 — stamps in a table of their own —
/// opens with each object's stamps in its row and in `stamp_order`, the same content, the
/// same delta for a peer in every zone, and writes go on from there.
@Suite struct StampsInRowMigrationTests {
    @Test func aStoreOfSchema18KeepsItsContentAndDeltasWithStampsInTheRows() throws {
        let library = try TestLibrary()
        let store = library.priv
        let beach = try library.addPhoto("beach.jpg", tags: ["sea", "sand"])
        let dunes = try library.addPhoto("dunes.jpg", bytes: Array("dunes".utf8), tags: ["sand"])
        let gone = try library.addPhoto("gone.jpg", bytes: Array("gone".utf8), tags: ["sea"])
        try store.renamePhoto(beach, to: "shore.jpg")
        _ = try store.rate(photo: beach, value: 4)
        try store.deletePhoto(gone)
        let share = try store.createShare(photo: dunes, title: "Dunes", publicPermission: .readOnly)
        let zones = [LibraryStore.defaultZone, share]
        let dumps = try zones.map { try store.canonicalDump(zone: $0) }
        let deltas = try zones.map { try store.changes(zone: $0, since: VectorClock()) }
        let raters = try store.raters(ofPhoto: beach)
        let order = try store.read { db in
            try db.query(
                "SELECT zone, peer, hlc, entity, object, fields FROM stamp_order ORDER BY 1, 2, 3, 4, 5"
            ) {
                "\($0.string(0)) \($0.int64(1)) \($0.uint64(2)) \($0.int(3)) \($0.string(4)) \($0.int64(5))"
            }
        }
        #expect(order.count >= 10)
        try store.writeLocal { db in try db.execute(SchemaDowngrade.fromLatest(to: 18)) }
        let reopened = try library.reopen()
        defer { reopened.close() }
        let upgraded = reopened.privateStore
        #expect(try isAtLatestSchema(upgraded))
        #expect(
            try upgraded.read { db in
                try db.first("SELECT count(*) FROM sqlite_master WHERE name = 'stamps'") { $0.int(0) }
            } == 0)
        #expect(
            try upgraded.read { db in
                try db.query(
                    "SELECT zone, peer, hlc, entity, object, fields FROM stamp_order ORDER BY 1, 2, 3, 4, 5"
                ) {
                    "\($0.string(0)) \($0.int64(1)) \($0.uint64(2)) \($0.int(3)) \($0.string(4)) \($0.int64(5))"
                }
            } == order)
        #expect(try upgraded.stampOrderDrift() == [])
        #expect(try zones.map { try upgraded.canonicalDump(zone: $0) } == dumps)
        #expect(try zones.map { try upgraded.changes(zone: $0, since: VectorClock()) } == deltas)
        #expect(try upgraded.raters(ofPhoto: beach) == raters)
        // Writing goes on with the stamps in the rows: the name's bit moves to the new stamp.
        try upgraded.renamePhoto(beach, to: "coast.jpg")
        _ = try upgraded.tag(photo: beach, name: "summer")
        try upgraded.addToShare(photo: beach, zone: share)
        #expect(try upgraded.photo(beach)?.name == "coast.jpg")
        #expect(try upgraded.stampOrderDrift() == [])
        #expect(try upgraded.integrityCheck() == "ok")
        // The stamps a peer gets are the ones the rows hold.
        let later = try upgraded.changes(zone: share, since: VectorClock())
        let name = later.flatMap(\.objects).first { $0.id == beach }?.fields.first {
            $0.field == PhotoField.name.code
        }
        let stamps = try upgraded.read { db in try upgraded.fieldStamps(.photo, beach, db) }
        #expect(name?.stamp == stamps.first { $0.code == PhotoField.name.code }?.stamp)
    }

    @Test func stampGroupsMoveFieldsAndRoundTrip() {
        var groups = StampGroups()
        groups.move(FieldMask.bit(1) | FieldMask.bit(2) | FieldMask.bit(15), toPeer: 1, hlc: 100)
        groups.move(FieldMask.bit(2), toPeer: 2, hlc: 200)
        #expect(
            groups.groups == [
                .init(mask: FieldMask.bit(1) | FieldMask.bit(15), peer: 1, hlc: 100),
                .init(mask: FieldMask.bit(2), peer: 2, hlc: 200),
            ])
        groups.move(FieldMask.bit(1) | FieldMask.bit(15), toPeer: 2, hlc: 200)
        #expect(
            groups.groups == [
                .init(mask: FieldMask.bit(1) | FieldMask.bit(2) | FieldMask.bit(15), peer: 2, hlc: 200)
            ])
        #expect(StampGroups(groups.encoded) == groups)
        #expect(groups.group(of: 2)?.hlc == 200 && groups.group(of: 3) == nil)
        #expect(StampGroups().encoded == .null && StampGroups(.null).isEmpty)
    }

    @Test func theSQLFunctionsReadAndMoveStampsAsSwiftDoes() throws {
        let library = try TestLibrary()
        var groups = StampGroups()
        groups.move(FieldMask.bit(3), toPeer: 7, hlc: 1 << 40)
        let blob = groups.encoded
        let (hlc, peer, missing, moved) = try library.priv.read { db in
            try db.first(
                "SELECT stamp_hlc(?1, 3), stamp_peer(?1, 3), stamp_hlc(?1, 4), stamp_move(?1, 8, 9, 5)", blob
            ) { ($0.uint64(0), $0.int64(1), $0.isNull(2), StampGroups($0.value(3))) }
        }!
        #expect(hlc == 1 << 40 && peer == 7 && missing)
        #expect(moved.groups == [.init(mask: 8, peer: 9, hlc: 5)])
    }
}
