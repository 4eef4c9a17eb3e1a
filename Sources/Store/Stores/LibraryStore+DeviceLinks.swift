/// One-time device links (`peershare device link`): a link's token is kept only as its
/// SHA-256, valid until it expires or is used once. Local bookkeeping, never replicated.
extension LibraryStore {
    /// Most links open (unused, unexpired) at once.
    public static let maximumOpenDeviceLinks = 16

    /// What became of a link's token presented by a new device.
    public enum DeviceLinkUse: Equatable, Sendable {
        /// It was open: it is used now; `name` is the name given when it was made.
        case used(name: String?)
        case unknown
        case expired(at: UInt64)
        case alreadyUsed(at: UInt64)
    }

    /// Keeps a new link (its token's hash), valid until `expiresAt` (wall-clock ms); expired
    /// ones go. Throws when `maximumOpenDeviceLinks` are open already.
    public func addDeviceLink(tokenHash: String, expiresAt: UInt64, name: String?, now: UInt64) throws {
        try writeLocal { db in
            try db.run("DELETE FROM device_links WHERE expires_at <= ?", Int64(bitPattern: now))
            let open =
                try db.first("SELECT count(*) FROM device_links WHERE used_at IS NULL") { $0.int(0) } ?? 0
            guard open < Self.maximumOpenDeviceLinks else {
                throw StoreError.invalid(
                    "\(open) device links are open already (at most \(Self.maximumOpenDeviceLinks)): use one, "
                        + "or wait until they expire")
            }
            try db.run(
                "INSERT INTO device_links (token_hash, expires_at, name) VALUES (?, ?, ?)", tokenHash,
                Int64(bitPattern: expiresAt), name)
        }
    }

    /// Uses the link whose token hashes to `tokenHash`, at `now`, if it is open; says why
    /// not otherwise (and changes nothing).
    public func useDeviceLink(tokenHash: String, now: UInt64) throws -> DeviceLinkUse {
        try writeLocal { db in
            let row = try db.first(
                "SELECT expires_at, used_at, name FROM device_links WHERE token_hash = ?", tokenHash
            ) {
                (
                    UInt64(bitPattern: $0.int64(0)), $0.isNull(1) ? nil : UInt64(bitPattern: $0.int64(1)),
                    $0.optionalString(2)
                )
            }
            guard let row else { return .unknown }
            if let used = row.1 { return .alreadyUsed(at: used) }
            guard now < row.0 else { return .expired(at: row.0) }
            try db.run(
                "UPDATE device_links SET used_at = ? WHERE token_hash = ?", Int64(bitPattern: now), tokenHash)
            return .used(name: row.2)
        }
    }
}
