/// Devices' signed address records and the address each was last reached at: what lets
/// this library dial a member that moved, after a restart too. The records are opaque
/// bytes here; Replication checks their signatures before storing them. Local bookkeeping,
/// never replicated.
extension LibraryStore {
    /// One device's row.
    public struct StoredAddressRecord: Equatable, Sendable {
        public var device: PeerID
        /// The record's version; 0 when there is no record.
        public var version: UInt64
        /// The encoded signed record, if one was taken.
        public var record: [UInt8]?
        /// The address a dial last reached the device at, and when (wall-clock milliseconds).
        public var confirmedAddress: String?
        public var confirmedAt: UInt64?
    }

    /// Keeps `record` as `device`'s, if its `version` is higher than the one held. Returns
    /// whether it was kept.
    @discardableResult
    public func storeAddressRecord(_ record: [UInt8], version: UInt64, of device: PeerID) throws -> Bool {
        try storeAddressRecords([(device, version, record)]) == 1
    }

    /// Keeps each record whose version is higher than the one held for its device, in one
    /// transaction (the records a connection brings arrive together). Returns how many.
    @discardableResult
    public func storeAddressRecords(_ records: [(device: PeerID, version: UInt64, record: [UInt8])]) throws
        -> Int
    {
        guard !records.isEmpty else { return 0 }
        return try writeLocal { db in
            var kept = 0
            for (device, version, record) in records {
                try db.run(
                    """
                    INSERT INTO address_records (device, version, record) VALUES (?, ?, ?)
                    ON CONFLICT (device) DO UPDATE SET version = excluded.version, record = excluded.record
                    WHERE excluded.version > address_records.version
                    """, device.description, Int64(bitPattern: version), record)
                kept += db.changes
            }
            return kept
        }
    }

    /// Remembers that a dial reached `device` at `address` at `time` (wall-clock ms).
    public func confirmAddress(_ address: String, of device: PeerID, at time: UInt64) throws {
        try writeLocal { db in
            try db.run(
                """
                INSERT INTO address_records (device, confirmed_address, confirmed_at) VALUES (?, ?, ?)
                ON CONFLICT (device) DO UPDATE SET confirmed_address = excluded.confirmed_address,
                confirmed_at = excluded.confirmed_at
                """, device.description, address, Int64(bitPattern: time))
        }
    }

    /// Every row, by device.
    public func addressRecords() throws -> [StoredAddressRecord] {
        try read { db in
            try db.query(
                "SELECT device, version, record, confirmed_address, confirmed_at FROM address_records ORDER BY device"
            ) { row -> StoredAddressRecord? in
                guard let device = try? PeerID(parsing: row.string(0)) else { return nil }
                return StoredAddressRecord(
                    device: device, version: UInt64(bitPattern: row.int64(1)), record: row.optionalBytes(2),
                    confirmedAddress: row.optionalString(3),
                    confirmedAt: row.isNull(4) ? nil : UInt64(bitPattern: row.int64(4)))
            }.compactMap { $0 }
        }
    }
}
