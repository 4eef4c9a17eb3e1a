import CSQLite
import Glibc

extension Database {
    /// Copies the database as this connection sees it into a new file at `destination`
    /// (mode 0600), with SQLite's online backup: called inside a read transaction, the copy
    /// is that transaction's snapshot, while other connections go on writing.
    func backup(into destination: String) throws(DatabaseError) {
        guard access(destination, F_OK) != 0 else {
            throw DatabaseError(code: SQLITE_CANTOPEN, message: "\(destination) exists already")
        }
        Self.createPrivately(destination)
        var target: OpaquePointer?
        let rc = sqlite3_open_v2(destination, &target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard rc == SQLITE_OK, let target else {
            let message = target.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let target { sqlite3_close_v2(target) }
            throw DatabaseError(code: rc, message: "\(message) (\(destination))")
        }
        defer { sqlite3_close_v2(target) }
        guard let backup = sqlite3_backup_init(target, "main", handle, "main") else {
            throw DatabaseError(
                code: sqlite3_errcode(target),
                message: "\(String(cString: sqlite3_errmsg(target))) (\(destination))")
        }
        let step = sqlite3_backup_step(backup, -1)
        let finish = sqlite3_backup_finish(backup)
        guard step == SQLITE_DONE, finish == SQLITE_OK else {
            throw DatabaseError(
                code: step == SQLITE_DONE ? finish : step,
                message: "backing up \(path) into \(destination): \(String(cString: sqlite3_errmsg(target)))")
        }
    }
}
