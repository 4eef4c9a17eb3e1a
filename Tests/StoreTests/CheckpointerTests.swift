import Foundation
import TestSupport
import Testing

@testable import Store

/// The write-ahead log copied back on a thread of its own while writes go on.
@Suite struct CheckpointerTests {
    @Test func aCommitLeavesTheLogToTheCheckpointerAndNothingIsLost() throws {
        let dir = try TestDirectory()
        let path = dir.path + "/store.sqlite"
        let db = try Database(path: path)
        db.takeOverCheckpoints()
        let checkpointer = Checkpointer(path: path, threshold: 100)
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB)")
        let blob = [UInt8](repeating: 0x5A, count: 2_000)
        var sawLargeLog = false
        for round in 0..<40 {
            try db.transaction {
                for n in 0..<200 {
                    try db.run("INSERT INTO t (id, data) VALUES (?, ?)", round * 200 + n, blob)
                }
            }
            // Not checkpointed inside the commit: the log has grown past the threshold.
            if db.walPages >= 100 { sawLargeLog = true }
            checkpointer.committed(walPages: db.walPages)
        }
        #expect(sawLargeLog)
        checkpointer.close()
        db.close()
        let reopened = try Database(path: path)
        #expect(try reopened.first("SELECT count(*) FROM t") { $0.int(0) } == 8_000)
        #expect(try reopened.integrityCheck() == "ok")
    }
}
