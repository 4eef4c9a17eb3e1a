/// The signed device-list entries this library holds, as received, and the person its own
/// device belongs to. Local bookkeeping: the entries are checked by Replication (which holds
/// the cryptography), stored here unchanged, and never part of a zone's change sets.
extension LibraryStore {
    /// The person this device belongs to, once founded or joined.
    public func localPerson() throws -> PersonID? {
        try read { db in
            try db.first("SELECT value FROM meta WHERE key = 'local_person'") { row in
                try? PersonID(parsing: row.string(0))
            } ?? nil
        }
    }

    /// Records `entries` (hash and encoded bytes) of `person`'s device list, and with
    /// `local` makes `person` this device's person, in one transaction.
    public func saveDeviceListEntries(
        _ entries: [(hash: [UInt8], bytes: [UInt8])], of person: PersonID, local: Bool = false
    ) throws {
        try writeLocal { db in
            for entry in entries {
                try db.run(
                    "INSERT OR IGNORE INTO device_list_entries (person, hash, entry) VALUES (?, ?, ?)",
                    person.bytes, entry.hash, entry.bytes)
            }
            if local {
                try db.run(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('local_person', ?)",
                    person.description)
            }
        }
    }

    /// Every person whose device-list entries this library holds.
    public func listedPersons() throws -> [PersonID] {
        try read { db in
            try db.query("SELECT DISTINCT person FROM device_list_entries") { PersonID(digest: $0.bytes(0)) }
                .compactMap { $0 }.sorted()
        }
    }

    /// The person each device proved it belongs to on its own connection.
    public func provenPersons() throws -> [PeerID: PersonID] {
        try read { db in
            var result: [PeerID: PersonID] = [:]
            try db.forEach("SELECT device, person FROM device_persons") { row in
                if let device = try? PeerID(parsing: row.string(0)),
                    let person = try? PersonID(parsing: row.string(1))
                {
                    result[device] = person
                }
            }
            return result
        }
    }

    /// `person`'s device-list entries in the order they were stored (parents first).
    public func deviceListEntries(of person: PersonID) throws -> [[UInt8]] {
        try read { db in
            try db.query(
                "SELECT entry FROM device_list_entries WHERE person = ? ORDER BY rowid", person.bytes
            ) { $0.bytes(0) }
        }
    }
}
