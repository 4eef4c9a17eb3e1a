import ControlProtocol
import Store

/// A store's refusal reaches the client with the store's own code (`not_found`,
/// `ambiguous`, `invalid`, `photo_too_large`, …) and its message, word for word.
extension StoreError: ControlErrorConvertible {
    var controlError: ControlError {
        ControlError(ControlError.Code(rawValue: code), description)
    }
}

/// An SQLite failure the store did not turn into a `StoreError`: a full disk is the one a
/// person can act on, so it is said plainly; the rest names SQLite's own message.
extension DatabaseError: ControlErrorConvertible {
    var controlError: ControlError {
        if isDiskFull {
            return ControlError(
                .diskFull,
                "the disk holding the photo library is full: nothing was changed; free some space and retry")
        }
        return ControlError(
            .database, "the photo library's database failed: \(message) (see the daemon's log)")
    }
}

extension ControlError.Code {
    /// SQLite could not write: the disk or the database file is full.
    static let diskFull: Self = "disk_full"
    /// SQLite failed otherwise.
    static let database: Self = "database"
}
