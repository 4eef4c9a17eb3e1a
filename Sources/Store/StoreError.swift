/// What can go wrong in a store, each with a message a person can act on.
///
/// Messages name the object and what to do next; they never contain photo bytes, keys or
/// tokens.
public enum StoreError: Error, Equatable, CustomStringConvertible, Sendable {
    case schemaTooNew(path: String, version: Int, supported: Int)
    /// The migrated schema lacks columns the field tables describe.
    case schemaMismatch(path: String, table: String, missing: [String])
    case notFound(kind: String, reference: String)
    case ambiguous(kind: String, reference: String, matches: Int)
    case invalid(String)
    case permissionDenied(String)
    /// An uninvited accept of a private share, kept as a request for the owner to answer.
    case joinRequested(String)
    case unreadableFile(path: String, reason: String)
    case photoTooLarge(size: Int64, limit: Int64)
    case io(operation: String, path: String, reason: String)
    case unknownZone(String)
    /// A local write would be stamped below the change it overwrites: that change was made by
    /// a peer whose clock is further ahead of this one than this peer follows.
    case clockBehind(kind: String, id: String, by: PeerID, aheadMilliseconds: UInt64)

    public var description: String {
        switch self {
        case .schemaTooNew(let path, let version, let supported):
            return
                "\(path) was written by a newer PeerShare (schema \(version), this one knows \(supported)): "
                + "upgrade peershared"
        case .schemaMismatch(let path, let table, let missing):
            return
                "\(path): table \(table) lacks the column\(missing.count == 1 ? "" : "s") "
                + "\(missing.joined(separator: ", ")) this PeerShare stores fields in; the file was changed "
                + "outside PeerShare or this build lacks a migration: restore the file from a backup or "
                + "reinstall peershared"
        case .notFound(let kind, let reference):
            return "no \(kind) matches '\(reference)'"
        case .ambiguous(let kind, let reference, let matches):
            return "'\(reference)' matches \(matches) \(kind)s: give more characters of the ID"
        case .invalid(let message):
            return message
        case .permissionDenied(let message), .joinRequested(let message):
            return message
        case .unreadableFile(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .photoTooLarge(let size, let limit):
            return
                "the photo is \(size) bytes, over the limit of \(limit) bytes (max_photo_bytes in the config)"
        case .io(let operation, let path, let reason):
            return "\(operation) \(path) failed: \(reason)"
        case .unknownZone(let zone):
            return "no zone or share '\(zone)' in this library"
        case .clockBehind(let kind, let id, let peer, let ahead):
            return
                "cannot change \(kind) \(id.prefix(8)): its last change, by \(peer.short), is stamped "
                + "\(LibraryStore.describe(milliseconds: ahead)) ahead of this device's clock; check the "
                + "system clock of both devices"
        }
    }

    /// A short machine-readable code for clients.
    public var code: String {
        switch self {
        case .schemaTooNew: return "schema_too_new"
        case .schemaMismatch: return "schema_mismatch"
        case .notFound: return "not_found"
        case .ambiguous: return "ambiguous"
        case .invalid: return "invalid"
        case .permissionDenied: return "permission_denied"
        case .joinRequested: return "join_requested"
        case .unreadableFile: return "unreadable_file"
        case .photoTooLarge: return "photo_too_large"
        case .io: return "io_error"
        case .unknownZone: return "unknown_zone"
        case .clockBehind: return "clock_behind"
        }
    }
}
