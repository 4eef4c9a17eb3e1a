import Store
import Support

/// Everything the engine's threads share, behind one lock: membership, addresses, pauses,
/// and per peer the connection in use, the redial schedule and the traffic totals.
struct EngineState: Sendable {
    var running = false
    var stopped = false
    var membership = Membership()
    /// The one address the stores hold per member (a URL's, the last one it announced).
    var addresses: [PeerID: PeerAddress] = [:]
    /// Every other address known per member: signed records, the LAN, what worked.
    var book = AddressBook()
    /// This device's own newest signed address record.
    var ownRecord: AddressRecord?
    /// Records of devices that were no member when they arrived (a device list that makes
    /// them one may come a moment later), unchecked, newest per device, at most
    /// `maxEarlyRecords`: taken when membership admits their device.
    var earlyRecords: [PeerID: AddressRecord] = [:]
    static let maxEarlyRecords = 256
    var pausedAll = false
    var pausedPeers: Set<PeerID> = []
    var records: [PeerID: PeerRecord] = [:]
    /// Every live connection, established or not, by ID.
    var connections: [Int: PeerConnection] = [:]
    var nextConnectionID = 0
    var loopWake = false
    var refreshRequested = false
    /// Membership reads started, and the latest of them whose result was taken
    /// (`applyMembership`): reads run on several threads at once, and an older read finishing
    /// last must not put back what a newer one replaced.
    var membershipReadsStarted = 0
    var membershipReadTaken = 0
    /// A connection was made or lost since the members were last told this side's
    /// neighbours: the loop tells them at its next tick (`announceNeighbours`), so that the
    /// churn of a mesh forming costs one announcement per second, not one per connection.
    var neighboursChanged = false
    /// Zones whose share or participant records were committed since the loop last issued
    /// membership operations.
    var membershipTouched: Set<String> = []
    /// Zones with signed sets of this side's own commits that its peers have not been told
    /// of yet (`ReplicationConfiguration.ownSetsDelay`), and when the loop tells them.
    var heldOwnSets: Set<String> = []
    var heldOwnSetsDue: ContinuousClock.Instant?
    /// Changes made here that a peer refused (and that were undone), not reported yet.
    var refusedChanges: [RefusedChange] = []
    static let maxRefusedChanges = 1_000
    /// Bumped by every resume and `sync`: what `sync --wait` counts from. A peer is reached
    /// in a round by a connection; it is unreachable in a round when a dial started in that
    /// round failed and no connection followed.
    var syncRound = 0
    /// Incoming connections not yet known to be members, and guests: bounded.
    var inbound = InboundConnections()
    /// The sockets of `inbound`'s handshakes in TLS, by ticket: what is shut down to cut one.
    var handshakeSockets: [Int: TCPSocket] = [:]

    func isPaused(_ peer: PeerID) -> Bool { pausedAll || pausedPeers.contains(peer) }

    /// Peers worth a line in `peers`: members of a zone, and peers whose address was given.
    var knownPeers: Set<PeerID> { membership.peers.union(addresses.keys) }

    /// Keeps a record of a device that is no member yet, unless the map is full.
    mutating func keepEarly(_ record: AddressRecord) {
        if let held = earlyRecords[record.device], held.version >= record.version { return }
        guard earlyRecords[record.device] != nil || earlyRecords.count < Self.maxEarlyRecords else { return }
        earlyRecords[record.device] = record
    }

    /// The addresses a dial of `peer` tries, best first.
    func dialAddresses(_ peer: PeerID) -> [PeerAddress] {
        book.candidates(for: peer, stored: addresses[peer])
    }

    /// Whether any address of `peer` is known.
    func hasAddress(_ peer: PeerID) -> Bool {
        addresses[peer] != nil || book.knowsAddress(peer)
    }

    /// Drops the record of `peer` when it is neither known nor connected nor being dialed:
    /// a stranger that came and went leaves nothing behind.
    mutating func forgetIfStranger(_ peer: PeerID) {
        guard let record = records[peer], record.current == nil, !record.dialing,
            !membership.peers.contains(peer), addresses[peer] == nil
        else { return }
        records[peer] = nil
    }

    /// Peers this side dials: owners of zones it takes part in, and any other member whose
    /// address it was given (fellow participants up to the mesh's dial limit).
    var dialTargets: Set<PeerID> {
        membership.owners.union(addresses.keys.filter { membership.dials($0) })
            .union(book.devices.filter { membership.dials($0) })
    }

    /// The connections in use, one per peer.
    var current: [PeerConnection] { records.values.compactMap(\.current) }
}

/// A change made here that a peer refused; it was undone here.
public struct RefusedChange: Sendable, Equatable, CustomStringConvertible {
    /// The peer that refused it (the zone's owner).
    public let peer: PeerID
    public let zone: String
    public let refusal: Refusal

    public var description: String { "\(refusal) (refused by \(peer.short) in zone \(zone))" }
}

/// One peer as the engine tracks it.
struct PeerRecord: Sendable {
    /// The established connection in use.
    var current: PeerConnection?
    /// A dial is under way (until its connection is established or fails).
    var dialing = false
    /// Failed attempts since the last connection that worked.
    var attempt = 0
    /// The sync round in which the dial under way (or the last one) started.
    var dialRound: Int?
    /// The sync round in which a dial failed with no connection since: the peer does not
    /// hold up `sync --wait` in that round.
    var unreachableRound: Int?
    /// The address the dial under way (or the last one) reached the peer at.
    var dialedAddress: PeerAddress?
    /// Not before this instant; nil means now.
    var nextDial: ContinuousClock.Instant?
    /// A dial the peer refused as a duplicate was tried again without the backoff: done once
    /// per peer while the engine runs, so that a peer refusing every dial so cannot make this
    /// side dial it ten times a second.
    var redialedStaleDuplicate = false
    /// Bytes of connections that have ended.
    var bytesIn = 0
    var bytesOut = 0
    var lastSeen: UInt64?
    var connectedSince: UInt64?
    var lastError: String?
}

/// One peer's replication status, for `peershare peers` and the control socket.
public struct PeerStatus: Sendable, Equatable {
    public let peer: PeerID
    public let address: PeerAddress?
    public let connected: Bool
    public let paused: Bool
    /// Wall-clock milliseconds of the last bytes received, if ever.
    public let lastSeen: UInt64?
    public let connectedSince: UInt64?
    public let bytesIn: Int
    public let bytesOut: Int
    /// Zones replicated with the peer.
    public let zones: [String]
    /// While connected and not in sync, why not (what `sync --wait` would say of the peer).
    public let behind: String?
    /// Photos whose data is still to be fetched from this peer.
    public let pendingData: Int
    /// Why the last connection or dial ended, if it failed.
    public let lastError: String?
    /// Every address known for the peer, in the order a dial tries them.
    public let addresses: [KnownAddress]
    /// The members the peer last said (docs/PROTOCOL.md §7.9) it is connected to, in ID
    /// order; nil while not connected or until it says. What relaying decides by.
    public let neighbours: [PeerID]?

    /// True when connected and every shared zone (photo data included) is in sync.
    public var inSync: Bool { connected && behind == nil }
}

/// One address of a peer as `peers` shows it: where it was learnt, whether the connection in
/// use was dialed there, and when a dial last reached the peer there.
public struct KnownAddress: Sendable, Equatable {
    public let address: PeerAddress
    /// Where it was learnt: `record` (the peer's signed address record), `lan` (local
    /// discovery), `url` (a share URL accepted again), `stored` (the share URL accepted
    /// first, or what the peer said on a connection),
    /// `confirmed` (only a dial that reached it once).
    public let source: String
    public let inUse: Bool
    /// Wall-clock milliseconds of the last dial that reached the peer there.
    public let lastConfirmed: UInt64?
}

/// Whether every zone is in sync with every member that can be reached, as `sync --wait`
/// reports it.
public struct SyncStatus: Sendable, Equatable {
    /// True when every member reached agrees (photo data included) and every other member
    /// this side dials failed to answer a dial made since the last resume or `sync`.
    public let inSync: Bool
    /// Members whose every dial since the last resume or `sync` failed, with why.
    public let unreachable: [Unreachable]
    /// The members not in sync yet, or not dialed yet in this round, with why, for a person
    /// to read.
    public let reasons: [PeerID: String]

    /// The members not in sync yet, in ID order.
    public var behind: [PeerID] { reasons.keys.sorted() }

    /// A member that could not be reached.
    public struct Unreachable: Sendable, Equatable {
        public let peer: PeerID
        public let reason: String
    }
}
