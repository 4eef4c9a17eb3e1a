import ControlProtocol

/// Why a backup could not be written or restored; each message says what to do.
enum BackupError: Error, Equatable, CustomStringConvertible, ControlErrorConvertible {
    /// `backup DIR`: DIR holds something already.
    case targetNotEmpty(String)
    /// `backup DIR`: DIR is not a directory, or cannot be made.
    case targetUnusable(String, reason: String)
    /// `--restore`: the state directory holds something already.
    case stateNotEmpty(String)
    /// `--restore`: the backup is incomplete, of another format, or does not match its manifest.
    case invalidBackup(String, reason: String)

    var description: String {
        switch self {
        case .targetNotEmpty(let path):
            return "\(path) is not empty: back up into a new or empty directory"
        case .targetUnusable(let path, let reason):
            return "cannot back up into \(path): \(reason)"
        case .stateNotEmpty(let path):
            return "the state directory \(path) is not empty: restore into a new or empty one "
                + "(stop the daemon using it and move it aside first)"
        case .invalidBackup(let path, let reason):
            return "\(path) is not a usable backup: \(reason); nothing was restored"
        }
    }

    var controlError: ControlError {
        switch self {
        case .targetNotEmpty: return ControlError("not_empty", description)
        case .targetUnusable: return ControlError("io_error", description)
        case .stateNotEmpty: return ControlError("not_empty", description)
        case .invalidBackup: return ControlError("invalid_backup", description)
        }
    }
}
