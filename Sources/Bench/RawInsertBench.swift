import Foundation
import Store

/// The physical reference: plain SQLite inserts of the same photo rows, one transaction,
/// one prepared statement, no stamps and no history.
struct RawInsertBench {
    let directory: String
    let rows = 100_000

    func run() throws -> [BenchResult] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let db = try Database(path: directory + "/raw.sqlite")
        try db.execute(
            "CREATE TABLE photos (id TEXT PRIMARY KEY, zone TEXT, name TEXT, unique_name TEXT, created_at INTEGER, data_hash TEXT, data_size INTEGER)"
        )
        let hash = String(repeating: "ab", count: 32)
        let values = (0..<rows).map { p in (uuid(3, p), "photo \(p).jpg", uuid(4, p)) }
        let seconds = try measure {
            try db.transaction {
                for (p, row) in values.enumerated() {
                    try db.run(
                        "INSERT INTO photos VALUES (?, ?, ?, ?, ?, ?, ?)", row.0, "zone", row.1, row.2,
                        Int64(p), hash,
                        Int64(100_000))
                }
            }
        }
        return [
            BenchResult(
                name: "raw SQLite insert, same photo rows (reference)", unit: "rows/s",
                value: Double(rows) / seconds,
                target: "physical limit")
        ]
    }
}
