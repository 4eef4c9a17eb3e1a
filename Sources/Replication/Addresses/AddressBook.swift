import Store
import Support

/// Every address this side knows for each member device besides the one the stores hold:
/// the newest signed record, addresses heard on the LAN, and where dials reached it. From
/// these comes the order in which a dial tries them (`candidates`).
///
/// Why: a device that moved must be found again, by any member that learnt where it went;
/// and a device with several addresses (Wi-Fi and Ethernet, IPv4 and IPv6, a configured
/// name) must be reached at whichever works, the one that last worked first. Pure: the
/// engine keeps it under its lock and persists records and confirmations itself.
struct AddressBook: Sendable {
    struct Entry: Sendable {
        var record: AddressRecord?
        /// Address → wall-clock milliseconds of the last dial that reached the device there.
        var confirmed: [PeerAddress: UInt64] = [:]
        /// Address → when LAN discovery last heard the device say it listens there.
        var discovered: [PeerAddress: ContinuousClock.Instant] = [:]
        /// Given by a share URL accepted again (at most `maximumDiscovered`, newest first).
        var hinted: [PeerAddress] = []
        /// When an address heard on the LAN last made this side dial the device at once.
        var lanRedialAt: ContinuousClock.Instant?
        /// The address of the connection in use, when this side dialed it.
        var inUse: PeerAddress?
    }

    /// Most addresses one dial tries, so that a device with many dead addresses costs a
    /// bounded time per attempt.
    static let maximumCandidates = 8
    /// Most LAN addresses kept per device.
    static let maximumDiscovered = 4

    private(set) var entries: [PeerID: Entry] = [:]

    func entry(_ device: PeerID) -> Entry? { entries[device] }

    /// The version of the record held for `device`, if any.
    func version(of device: PeerID) -> UInt64? { entries[device]?.record?.version }

    /// Keeps `record` if it is newer than the one held for its device (the caller checked
    /// its signature). Returns whether it was kept.
    @discardableResult
    mutating func take(_ record: AddressRecord) -> Bool {
        if let held = version(of: record.device), held >= record.version { return false }
        entries[record.device, default: Entry()].record = record
        return true
    }

    /// Remembers that a dial reached `device` at `address` (`time`: wall-clock ms).
    mutating func confirm(_ address: PeerAddress, of device: PeerID, at time: UInt64) {
        entries[device, default: Entry()].confirmed[address] = time
        entries[device, default: Entry()].inUse = address
    }

    /// The connection with `device` ended, or was not dialed by this side.
    mutating func clearInUse(_ device: PeerID) {
        entries[device]?.inUse = nil
    }

    /// LAN discovery heard `device` at `addresses` `now`; entries older than `expiry` go.
    mutating func discovered(
        _ addresses: [PeerAddress], of device: PeerID, now: ContinuousClock.Instant, expiry: Duration
    ) {
        var entry = entries[device, default: Entry()]
        entry.discovered = entry.discovered.filter { now - $0.value < expiry }
        for address in addresses { entry.discovered[address] = now }
        while entry.discovered.count > Self.maximumDiscovered,
            let oldest = entry.discovered.min(by: { $0.value < $1.value })
        {
            entry.discovered[oldest.key] = nil
        }
        entries[device] = entry
    }

    /// Whether an address heard on the LAN may make this side dial `device` at once `now`
    /// (it did not in the last `gap`); if so, that is noted. Anyone on the LAN can send a
    /// member's genuine record from any source address: this keeps that from becoming a
    /// stream of dials.
    mutating func mayRedialForLAN(_ device: PeerID, now: ContinuousClock.Instant, gap: Duration) -> Bool {
        if let last = entries[device]?.lanRedialAt, now - last < gap { return false }
        entries[device, default: Entry()].lanRedialAt = now
        return true
    }

    /// A share URL says `device` listens at `addresses`; returns whether one is new.
    mutating func hint(_ addresses: [PeerAddress], of device: PeerID) -> Bool {
        var entry = entries[device, default: Entry()]
        let new = addresses.filter { !entry.hinted.contains($0) }
        entry.hinted = Array(
            (addresses + entry.hinted.filter { !addresses.contains($0) }).prefix(Self.maximumDiscovered))
        entries[device] = entry
        return !new.isEmpty
    }

    /// Drops every device not in `kept` (no longer a member of anything here).
    mutating func keep(only kept: Set<PeerID>) {
        entries = entries.filter { kept.contains($0.key) }
    }

    /// Devices with at least one address to try.
    var devices: [PeerID] { entries.keys.filter(knowsAddress) }

    /// Whether at least one address of `device` is known here.
    func knowsAddress(_ device: PeerID) -> Bool {
        guard let entry = entries[device] else { return false }
        return entry.record?.addresses.isEmpty == false || !entry.discovered.isEmpty
            || !entry.confirmed.isEmpty
            || !entry.hinted.isEmpty
    }

    /// The addresses to try for `device`, best first, at most `maximumCandidates`: those of
    /// its newest record, LAN, a URL and `stored` (the stores' address: a URL's, or the one it last
    /// announced) that a dial reached it at, the most recent first; then the rest of the
    /// record in its order, the LAN's, the URL's, `stored`; last the addresses that worked once but that
    /// nothing names any more.
    func candidates(for device: PeerID, stored: PeerAddress?) -> [PeerAddress] {
        let entry = entries[device] ?? Entry()
        let named =
            (entry.record?.addresses ?? []) + entry.discovered.keys.sorted { $0.description < $1.description }
            + entry.hinted + (stored.map { [$0] } ?? [])
        let byConfirmation = entry.confirmed.sorted { $0.value > $1.value }.map(\.key)
        let confirmedNamed = byConfirmation.filter(named.contains)
        var seen = Set<PeerAddress>()
        return (confirmedNamed + named + byConfirmation).filter { seen.insert($0).inserted }
            .prefix(Self.maximumCandidates).map { $0 }
    }
}
