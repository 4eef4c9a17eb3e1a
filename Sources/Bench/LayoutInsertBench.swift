import Foundation
import Replication
import Store

/// The join's floor on this machine: SQLite alone writing the rows a participant ends up with
/// after joining the daemons' bench zone (100,000 photos, a rating each, one or two links
/// each to 1,000 tags, as `FillShare` makes them) into the store's own schema — every index,
/// each row's stamps and its `stamp_order` row — with plain prepared inserts, objects in ID
/// order within transactions as large as a daemon's receiver applies together
/// (`SessionConfiguration.maximumChangesPerApply` field changes). No merge, no checks, no
/// history, no network: what the layout itself costs, which no apply can beat.
struct LayoutInsertBench {
    let directory: String
    let photos = 100_000
    let tags = 1_000

    func run() throws -> [BenchResult] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let library = try Library(directory: directory + "/library", localPeer: peer(0x4C))
        library.close()
        let db = try Database(path: directory + "/library/shared.sqlite")
        defer { db.close() }
        let zone = uuid(0x50, 0)
        let hash = String(repeating: "a5", count: 32)
        var hlc = benchStartHLC()
        // Every statement's values, made before the clock starts: transactions of rows.
        var transactions: [[Row]] = [
            (0..<tags).map { t in
                hlc += 1
                return Row(
                    .tag, uuid(0x54, t), zone: zone, hlc: hlc, mask: 0b110,
                    [
                        ("uuid", .text(uuid(0x55, t))), ("name", .text("tag-\(t)")),
                        ("winner", .text(uuid(0x54, t))),
                    ])
            }
        ]
        var photoRows: [Row] = []
        var ratingRows: [Row] = []
        var linkRows: [Row] = []
        var changes = 0
        func endTransaction() {
            // As a delta sends them: by kind, each kind in ID order.
            transactions.append([photoRows, ratingRows, linkRows].flatMap { $0.sorted { $0.id < $1.id } })
            (photoRows, ratingRows, linkRows, changes) = ([], [], [], 0)
        }
        for p in 0..<photos {
            hlc += 1
            let photo = uuid(0x51, p)
            let linked = Set(p % 2 == 0 ? [p % tags, (p / 2 + tags / 2) % tags] : [p % tags])
            // Five fields of the photo, two of its rating, one of each link.
            let photoChanges = 5 + 2 + linked.count
            if changes + photoChanges > SessionConfiguration.maximumChangesPerApply { endTransaction() }
            changes += photoChanges
            photoRows.append(
                Row(
                    .photo, photo, zone: zone, hlc: hlc, mask: 0b11_1110,
                    [
                        ("name", .text("IMG_\(p).jpg")), ("unique_name", .text(uuid(0x52, p))),
                        ("created_at", .integer(Int64(p))), ("data_hash", .text(hash)),
                        ("data_size", .integer(1024)),
                    ]))
            ratingRows.append(
                Row(
                    .rating, uuid(0x53, p), zone: zone, hlc: hlc, mask: 0b110,
                    [("photo_id", .text(photo)), ("value", .integer(Int64(p % 5 + 1)))]))
            for t in linked {
                let tag = uuid(0x54, t)
                linkRows.append(
                    Row(
                        .link, LibraryStore.linkID(photo: photo, tag: tag), zone: zone, hlc: hlc,
                        mask: 0b1000,
                        [("photo_id", .text(photo)), ("tag_id", .text(tag)), ("linked", .integer(1))]))
            }
        }
        endTransaction()
        let rows = transactions.reduce(0) { $0 + $1.count }
        let seconds = try measure {
            for rows in transactions {
                try db.transaction {
                    for row in rows {
                        try db.run(row.sql, sqlValues: row.values)
                        try db.run(
                            "INSERT INTO stamp_order (zone, peer, hlc, entity, object, fields) VALUES (?, 1, ?, ?, ?, ?)",
                            sqlValues: row.order)
                    }
                }
            }
        }
        return [
            BenchResult(
                name:
                    "SQLite alone: a join's rows into the store's schema (every index, stamps, stamp_order)",
                unit: "s", value: seconds, target: "physical limit"),
            BenchResult(
                name: "SQLite alone: a join's rows into the store's schema, rows per second", unit: "rows/s",
                value: Double(rows) / seconds, target: "physical limit"),
        ]
    }

    /// One object's row, with its stamps (one group: peer 1, `hlc`, its fields and the
    /// tombstone), and its order row.
    struct Row {
        let id: String
        let sql: String
        let values: [SQLValue]
        let order: [SQLValue]

        init(
            _ entity: Entity, _ id: String, zone: String, hlc: UInt64, mask: Int64,
            _ columns: [(String, SQLValue)]
        ) {
            let fields = mask | 1 << 15
            var stamps: [UInt8] = []
            withUnsafeBytes(of: fields.littleEndian) { stamps.append(contentsOf: $0) }
            withUnsafeBytes(of: UInt32(1).littleEndian) { stamps.append(contentsOf: $0) }
            withUnsafeBytes(of: hlc.littleEndian) { stamps.append(contentsOf: $0) }
            let names = (["id", "zone", "stamps"] + columns.map(\.0)).joined(separator: ", ")
            let marks = Array(repeating: "?", count: columns.count + 3).joined(separator: ", ")
            self.id = id
            sql = "INSERT INTO \(entity.table) (\(names)) VALUES (\(marks))"
            values = [.text(id), .text(zone), .blob(stamps)] + columns.map(\.1)
            order = [
                .text(zone), hlc.sqlValue, .integer(Int64(entity.rawValue)), .text(id), .integer(fields),
            ]
        }
    }
}
