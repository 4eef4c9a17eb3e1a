import Store
import Support

/// Signed address records: this device makes its own from its advertised addresses (again
/// whenever they change), tells every peer it meets, and passes on the newest record of
/// each member to the members it shares a zone with; peers that moved are dialed where
/// their records say (docs/PROTOCOL.md §7.10).
extension ReplicationEngine {
    /// Reads the records and confirmations kept in the private store into the address book
    /// (records checked again: a store is a file anyone with the account can edit).
    func loadAddressRecords() {
        let rows: [LibraryStore.StoredAddressRecord]
        do {
            rows = try library.privateStore.addressRecords()
        } catch {
            logger.log(.warning, "cannot read the address records: \(error)")
            return
        }
        let local = localPeer
        state.withLock { state in
            for row in rows {
                if let bytes = row.record, let record = try? AddressRecord(decoding: bytes),
                    record.device == row.device, record.isAuthentic
                {
                    if record.device == local { state.ownRecord = record } else { state.book.take(record) }
                }
                if row.device != local, let text = row.confirmedAddress,
                    let address = PeerAddress(parsing: text),
                    let time = row.confirmedAt
                {
                    state.book.confirm(address, of: row.device, at: time)
                    state.book.clearInUse(row.device)
                }
            }
        }
    }

    /// Makes a new own record when the advertised addresses differ from the last record's,
    /// keeps it, and sends it to every peer connected now. Its version is the wall clock in
    /// milliseconds, and always above the last one's.
    func refreshOwnRecord() {
        let addresses = Array(
            advertisedAddresses().filter { !$0.isWildcard }.prefix(MessageLimits().maxAddresses))
        guard !addresses.isEmpty else { return }
        let held = state.withLock { $0.ownRecord }
        guard held?.addresses != addresses else { return }
        let version = max(UInt64(HybridLogicalClock.wallMilliseconds()), (held?.version ?? 0) + 1)
        let record = AddressRecord.signed(addresses: addresses, version: version, by: identity)
        do {
            try library.privateStore.storeAddressRecord(record.encoded, version: version, of: localPeer)
        } catch {
            logger.log(.warning, "cannot keep this device's address record: \(error)")
        }
        let connections = state.withLock { state -> [PeerConnection] in
            state.ownRecord = record
            return state.current
        }
        logger.log(.info, "advertising \(addresses.map(\.description).joined(separator: ", "))")
        for connection in connections { connection.post(.sendAddressRecords([record])) }
    }

    /// What a new connection's peer is told: this device's record, and the newest record held
    /// of every other member of the zones replicated with it.
    func sendAddressRecords(on connection: PeerConnection) {
        let peer = connection.peer
        let records = state.withLock { state -> [AddressRecord] in
            let fellows = Self.devices(sharingAZoneWith: peer, in: state.membership)
            return [state.ownRecord].compactMap { $0 }
                + fellows.sorted().compactMap { state.book.entry($0)?.record }
        }
        guard !records.isEmpty else { return }
        connection.post(.sendAddressRecords(records))
    }

    /// The devices, `peer` excepted, that take part in a zone this library replicates with
    /// `peer`.
    static func devices(sharingAZoneWith peer: PeerID, in membership: Membership) -> Set<PeerID> {
        let zones = Set(membership.zones(with: peer).map(\.zone))
        guard !zones.isEmpty else { return [] }
        var devices = Set<PeerID>()
        for (device, shared) in membership.zonesByPeer where device != peer {
            if shared.contains(where: { zones.contains($0.zone) }) { devices.insert(device) }
        }
        return devices
    }

    /// Takes the records a peer sent: for members of zones held here only, checked, and
    /// newer than the one held. Each record taken is kept, dialed at once if its device is
    /// not connected, and passed on to the other peers that share a zone with its device.
    func receivedAddressRecords(_ records: [AddressRecord], from connection: PeerConnection) {
        let taken = take(records, heardFrom: connection.peer)
        guard !taken.isEmpty else { return }
        forward(taken, except: connection)
    }

    /// Checks and keeps `records` (from `source`, for the log); returns those kept.
    func take(_ records: [AddressRecord], heardFrom source: PeerID?) -> [AddressRecord] {
        let local = localPeer
        let fresh = state.withLock { state in
            records.filter { record in
                guard record.device != local else { return false }
                guard state.membership.peers.contains(record.device) else {
                    state.keepEarly(record)
                    return false
                }
                return (state.book.version(of: record.device) ?? 0) < record.version
            }
        }
        var taken: [AddressRecord] = []
        for record in fresh {
            guard record.isAuthentic else {
                logger.log(
                    .notice, "ignored an address record of \(record.device.short) with a bad signature",
                    peer: source)
                continue
            }
            let kept = state.withLock { state -> Bool in
                guard state.book.take(record) else { return false }
                if state.records[record.device]?.current == nil {
                    state.records[record.device, default: PeerRecord()].nextDial = nil
                }
                return true
            }
            guard kept else { continue }
            taken.append(record)
            logger.log(
                .info, "listens at \(record.addresses.map(\.description).joined(separator: ", "))",
                peer: record.device)
        }
        guard !taken.isEmpty else { return [] }
        do {
            try library.privateStore.storeAddressRecords(taken.map { ($0.device, $0.version, $0.encoded) })
        } catch {
            logger.log(.warning, "cannot keep \(taken.count) address records: \(error)", peer: source)
        }
        wakeLoop()
        return taken
    }

    /// Takes the records kept for devices that membership now admits (their device list
    /// came after them), and passes them on.
    func takeEarlyRecords() {
        let ready = state.withLock { state -> [AddressRecord] in
            let admitted = state.earlyRecords.values.filter { state.membership.peers.contains($0.device) }
            for record in admitted { state.earlyRecords[record.device] = nil }
            return admitted
        }
        guard !ready.isEmpty else { return }
        forward(take(ready, heardFrom: nil), except: nil)
    }

    /// Passes `records` on to every connection, but `source`, whose peer shares a zone with
    /// the record's device.
    func forward(_ records: [AddressRecord], except source: PeerConnection?) {
        let targets = state.withLock { state -> [(PeerConnection, [AddressRecord])] in
            state.current.compactMap { connection in
                guard connection !== source else { return nil }
                let fellows = Self.devices(sharingAZoneWith: connection.peer, in: state.membership)
                let wanted = records.filter { fellows.contains($0.device) }
                return wanted.isEmpty ? nil : (connection, wanted)
            }
        }
        for (connection, wanted) in targets { connection.post(.sendAddressRecords(wanted)) }
    }

    /// A dial reached `peer` at `address`: it is tried first next time, after a restart too.
    func confirmDialedAddress(of peer: PeerID) {
        let now = UInt64(HybridLogicalClock.wallMilliseconds())
        let address = state.withLock { state -> PeerAddress? in
            guard let address = state.records[peer]?.dialedAddress else { return nil }
            state.book.confirm(address, of: peer, at: now)
            return address
        }
        guard let address else { return }
        do {
            try library.privateStore.confirmAddress(address.description, of: peer, at: now)
        } catch {
            logger.log(.warning, "cannot remember the address \(address): \(error)", peer: peer)
        }
    }
}

extension ReplicationEngine {
    /// This device's newest signed address record, if it advertises any address.
    public var ownAddressRecord: AddressRecord? { state.withLock { $0.ownRecord } }

    /// Least time between two dials of one device made at once for addresses heard on the LAN.
    static let lanRedialGap: Duration = .seconds(5)

    /// Local discovery heard `record` from `host`: for a member of a zone held here, the
    /// record is checked (unless it is the very one held), kept when newer, and the member
    /// is taken to listen on `host` at the record's ports too (for `expiry`); a new address
    /// is dialed at once.
    func discovered(_ record: AddressRecord, from host: String, expiry: Duration) -> DiscoveryOutcome {
        guard record.device != localPeer else { return .own }
        let (member, held) = state.withLock {
            ($0.membership.peers.contains(record.device), $0.book.entry(record.device)?.record)
        }
        guard member else { return .stranger }
        if held != record {
            guard record.isAuthentic else { return .badSignature }
            guard (held?.version ?? 0) < record.version else { return .stale }
            forward(take([record], heardFrom: nil), except: nil)
        }
        let heard = Set(record.addresses.map(\.port)).sorted().map { PeerAddress(host: host, port: $0) }
        let redial = state.withLock { state -> Bool in
            let before = Set(state.dialAddresses(record.device))
            state.book.discovered(heard, of: record.device, now: .now, expiry: expiry)
            guard state.records[record.device]?.current == nil, !heard.allSatisfy(before.contains),
                state.book.mayRedialForLAN(record.device, now: .now, gap: Self.lanRedialGap)
            else {
                return false
            }
            state.records[record.device, default: PeerRecord()].nextDial = nil
            return true
        }
        if redial {
            logger.log(
                .info, "heard on the LAN at \(heard.map(\.description).joined(separator: ", "))",
                peer: record.device)
            wakeLoop()
        }
        return .heard
    }
}
