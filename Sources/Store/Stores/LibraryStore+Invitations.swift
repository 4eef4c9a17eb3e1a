import Support

/// The secret part of share URLs: a 128-bit token per share, which the owner keeps only as
/// a SHA-256 hash and can revoke.
///
/// The token is derived — HMAC-SHA-256 of the share's zone ID and a generation number under
/// a local secret key (`invite.key`, mode 0600, beside the databases) — so the owner can
/// show the URL again without the database ever holding it. Revoking bumps the generation:
/// every URL handed out before stops working.
extension LibraryStore {
    /// The current token of a share this store owns, and whether this call made it
    /// (generation 1): the share's membership log is then to learn it. A token made already,
    /// the common case of every `share show` and `share list`, costs one read transaction;
    /// only making it writes.
    public func currentInvitation(zone: String, secret: [UInt8]) throws -> (token: String, made: Bool) {
        let held = try read { db in
            try requireOwnedShare(zone, db)
            return try generation(zone, db)
        }
        if let held { return (Self.token(zone: zone, generation: held, secret: secret), false) }
        return try writeLocal { db in
            // Another call may have made it between the read and this transaction.
            if let generation = try generation(zone, db) {
                return (Self.token(zone: zone, generation: generation, secret: secret), false)
            }
            let token = Self.token(zone: zone, generation: 1, secret: secret)
            try db.run(
                "INSERT INTO invitations (zone, generation, token_hash) VALUES (?, 1, ?)", zone,
                Self.hash(token))
            return (token, true)
        }
    }

    /// Revokes every URL of the share handed out so far; returns the new token. A share whose
    /// URL was never made gets generation 2 all the same: generation 1's URL may not be
    /// handed out after a revocation.
    public func revokeInvitations(zone: String, secret: [UInt8]) throws -> String {
        try writeLocal { db in
            try requireOwnedShare(zone, db)
            let generation = (try generation(zone, db) ?? 1) + 1
            let token = Self.token(zone: zone, generation: generation, secret: secret)
            try db.run(
                """
                INSERT INTO invitations (zone, generation, token_hash) VALUES (?, ?, ?)
                ON CONFLICT (zone) DO UPDATE SET generation = excluded.generation, token_hash = excluded.token_hash
                """, zone, generation, Self.hash(token))
            return token
        }
    }

    /// The share's current token generation, nil while no URL was ever made for it.
    private func generation(_ zone: String, _ db: Database) throws -> Int64? {
        try db.first("SELECT generation FROM invitations WHERE zone = ?", zone) { $0.int64(0) }
    }

    /// True when `token` is the share's current, unrevoked token.
    public func isValidInvitation(zone: String, token: String) throws -> Bool {
        let stored = try read { db in
            try db.first("SELECT token_hash FROM invitations WHERE zone = ?", zone) { $0.string(0) }
        }
        guard let stored else { return false }
        return Self.constantTimeEqual(Array(stored.utf8), Array(Self.hash(token).utf8))
    }

    /// The SHA-256 of the share's current URL token (the bytes the stored hex spells), or
    /// nil while no URL was ever made for it: what the owner's membership log names as the
    /// share URL's token.
    public func invitationTokenHash(zone: String) throws -> [UInt8]? {
        let stored = try read { db in
            try db.first("SELECT token_hash FROM invitations WHERE zone = ?", zone) { $0.string(0) }
        }
        return stored.flatMap(Self.bytes(hex:))
    }

    /// The bytes `hex` spells (two lowercase or uppercase digits each); nil when it is not hex.
    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private func requireOwnedShare(_ zone: String, _ db: Database) throws {
        guard let owner = try ownerSide(of: zone, db), zone != Self.defaultZone else {
            throw StoreError.unknownZone(zone)
        }
        guard owner.includes(localPeer) else {
            throw StoreError.permissionDenied("only the share's owner has its URL")
        }
    }

    static func token(zone: String, generation: Int64, secret: [UInt8]) -> String {
        let digest = SHA256Hasher.hmac(key: secret, message: Array("\(zone)#\(generation)".utf8))
        return SHA256Hasher.hex(Array(digest.prefix(16)))
    }

    static func hash(_ token: String) -> String { SHA256Hasher.hex(SHA256Hasher.digest(Array(token.utf8))) }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
