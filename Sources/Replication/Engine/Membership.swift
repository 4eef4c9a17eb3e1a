import Store
import Support

/// Who this library replicates what with, and where they listen, read from its two stores.
///
/// On the owner side, a private-store share zone is replicated with each participant whose
/// status is `accepted`, until the share is stopped; on the participant side, a shared-store
/// zone with its owner and with the zone's other accepted participants (the mesh: each sends
/// the other only what it wrote itself). A peer is admitted to connect when it is a member of any zone (a
/// `pending` participant too: it connects to accept its invitation). Owners of shared-store
/// zones are dialed, and so are the peers a zone is replicated with whose address is known.
///
/// Addresses: an owner's is the share URL's HOST:PORT, then the one it last said on a
/// connection; a participant's is the one it last said (docs/PROTOCOL.md §7.5).
public struct Membership: Sendable, Equatable {
    /// A zone replicated with one peer.
    public struct Zone: Hashable, Sendable {
        public var zone: String
        public var store: StoreKind
        public var localIsOwner: Bool
        /// The peer owns the zone; neither side does between fellow participants.
        public var peerIsOwner = false
        /// The peer is another device of this person: in a share the person takes part in,
        /// each side sends the other its whole copy, which the other takes as its own.
        public var betweenSiblings = false
    }

    public private(set) var zonesByPeer: [PeerID: [Zone]] = [:]
    public private(set) var admitted: Set<PeerID> = []
    /// Owners of zones this library takes part in: the peers to dial.
    public private(set) var owners: Set<PeerID> = []
    /// The other accepted participants of zones this library takes part in (the mesh), that
    /// are not also a member of a zone owned here or the owner of a zone taken part in.
    public private(set) var fellows: Set<PeerID> = []
    /// The fellows this side dials: at most `meshDials` of them, those following this
    /// library's peer ID in ID order (wrapping around), so that every member dials a
    /// different few and each is dialed by a few. The others may dial here.
    public private(set) var dialedFellows: Set<PeerID> = []
    /// Where members listen, as the stores know it: owners of the zones this library takes
    /// part in, participants of its shares that said where they listen.
    public private(set) var addresses: [PeerID: PeerAddress] = [:]
    /// The other devices of this library's person: they replicate this whole library.
    public private(set) var siblings: Set<PeerID> = []

    public init() {}

    /// Reads the membership of `library` and its members' addresses. Rows naming a
    /// malformed peer ID or address are skipped.
    public static func load(from library: Library, meshDials: Int = 16, groups: DeviceGroups = DeviceGroups())
        throws -> Membership
    {
        var membership = Membership()
        let local = library.localPeer
        let siblings = groups.siblings(of: local)
        let owned = try library.privateStore.shares().filter {
            $0.zone != LibraryStore.defaultZone && !$0.stopped
        }
        let takenPart = try library.sharedStore.zoneOwners()
        // The person's other devices replicate the whole library: the default zone, the
        // shares the person owns (each side holds them as their owner: neither undoes its
        // own changes on the other's word) and those it takes part in (as fellow participants).
        for sibling in siblings {
            membership.admitted.insert(sibling)
            membership.siblings.insert(sibling)
            membership.zonesByPeer[sibling, default: []].append(
                Zone(zone: LibraryStore.defaultZone, store: .private, localIsOwner: true))
            for share in owned {
                membership.zonesByPeer[sibling]!.append(
                    Zone(zone: share.zone, store: .private, localIsOwner: true))
            }
            for zone in takenPart {
                membership.zonesByPeer[sibling]!.append(
                    Zone(zone: zone.id, store: .shared, localIsOwner: false, betweenSiblings: true))
            }
        }
        for share in owned {
            // A device's own removed record settles it, whatever list names it.
            let removed = Set(share.participants.filter { $0.status == .removed }.map(\.peer))
            for participant in share.participants {
                // A participant takes part through each of its person's current devices.
                let devices = (participant.person.flatMap { groups.current[$0] } ?? []).subtracting(removed)
                for peer in devices.union([participant.peer]) where peer != local && !siblings.contains(peer)
                {
                    switch participant.status {
                    case .accepted:
                        membership.admitted.insert(peer)
                        membership.zonesByPeer[peer, default: []].append(
                            Zone(zone: share.zone, store: .private, localIsOwner: true))
                    case .pending:
                        membership.admitted.insert(peer)
                    case .removed:
                        break
                    }
                }
            }
        }
        for row in try library.privateStore.participantAddresses() where row.peer != local {
            if let address = PeerAddress(parsing: row.address) { membership.addresses[row.peer] = address }
        }
        // Read once: the owners' persons here, the fellow participants below.
        let takenPartShares = try library.sharedStore.shares()
        let ownerPersons = Dictionary(
            takenPartShares.compactMap { share in share.ownerPerson.map { (share.zone, $0) } },
            uniquingKeysWith: { a, _ in a })
        for zone in takenPart {
            let owner = zone.owner
            guard owner != local else { continue }
            // Every current device of the owner's person speaks for the owner.
            let devices = ownerPersons[zone.id].flatMap { groups.current[$0] } ?? [owner]
            for device in devices where device != local && !siblings.contains(device) {
                membership.admitted.insert(device)
                membership.owners.insert(device)
                membership.zonesByPeer[device, default: []].append(
                    Zone(zone: zone.id, store: .shared, localIsOwner: false, peerIsOwner: true))
            }
            if let address = zone.address.flatMap(PeerAddress.init(parsing:)) {
                membership.addresses[owner] = address
            }
        }
        try membership.addFellowParticipants(of: library, shares: takenPartShares, groups: groups)
        let ring = membership.fellows.sorted()
        let after = ring.firstIndex { $0 > local } ?? 0
        membership.dialedFellows = Set((ring[after...] + ring[..<after]).prefix(max(0, meshDials)))
        for peer in membership.zonesByPeer.keys { membership.zonesByPeer[peer]!.sort { $0.zone < $1.zone } }
        return membership
    }

    /// Adds the accepted participants of the zones this library takes part in, with the
    /// addresses their records give (written by the owner), and the members the zones'
    /// signed logs admit that the records do not name yet (`LibraryStore.LogMember`: joined
    /// through a member while the owner was away), unless a record says they were removed.
    private mutating func addFellowParticipants(
        of library: Library, shares: [ShareInfo], groups: DeviceGroups
    ) throws {
        let local = library.localPeer
        let person = groups.local.map { groups.current[$0] ?? [] } ?? []
        let logMembers = Dictionary(grouping: try library.sharedStore.logMembers(), by: \.zone)
        for share in shares
        where share.zone != LibraryStore.defaultZone && !share.stopped && share.owner != local {
            let records = Dictionary(
                share.participants.map { ($0.peer, $0) }, uniquingKeysWith: { a, _ in a })
            let fromLog = (logMembers[share.zone] ?? []).filter { records[$0.device]?.status != .removed }
            // Only while this library is itself an accepted participant (by the records, or
            // by the log until the records name it).
            // (Another device of this person taking part counts: the person takes part.)
            let admittedByLog = fromLog.contains { $0.device == local && $0.permission != nil }
            let status =
                records[local]?.status
                ?? (siblings.contains { records[$0]?.status == .accepted } ? .accepted : nil)
            guard MemberAdmission.takesPart(status: status, admittedByLog: admittedByLog) else { continue }
            var members: [PeerID: String?] = [:]
            for participant in share.participants where participant.status == .accepted {
                members[participant.peer] = participant.address
                // A participant takes part through each of its person's current devices.
                for device in participant.person.flatMap({ groups.current[$0] }) ?? []
                where members[device] == nil {
                    members[device] = .some(nil)
                }
            }
            for member in fromLog where members[member.device] == nil {
                members[member.device] = member.address
            }
            for (peer, address) in members
            where peer != local && !owners.contains(peer) && !person.contains(peer) {
                if !admitted.contains(peer) { fellows.insert(peer) }
                admitted.insert(peer)
                zonesByPeer[peer, default: []].append(
                    Zone(zone: share.zone, store: .shared, localIsOwner: false))
                if addresses[peer] == nil, let address = address.flatMap(PeerAddress.init(parsing:)) {
                    addresses[peer] = address
                }
            }
        }
    }

    public func zones(with peer: PeerID) -> [Zone] { zonesByPeer[peer] ?? [] }

    /// The peers this side replicates `zone` with, each with every way it replicates it
    /// with them.
    public func peers(replicating zone: String) -> [(peer: PeerID, zone: Zone)] {
        zonesByPeer.flatMap { peer, zones in zones.filter { $0.zone == zone }.map { (peer, $0) } }
    }

    /// Whether this side dials `peer` when it knows its address: every member it replicates
    /// a zone with, except the fellows beyond the mesh's dial limit. A `pending` participant
    /// is admitted (it connects to accept its invitation) but not dialed: nothing is
    /// replicated with it yet, and a device that left the share (or was removed) before its
    /// new invitation closes such a connection as a stranger's, which `sync --wait` then
    /// reported as unreachable.
    public func dials(_ peer: PeerID) -> Bool {
        zonesByPeer[peer] != nil && (!fellows.contains(peer) || dialedFellows.contains(peer))
    }

    /// Every peer this library has anything to do with.
    public var peers: Set<PeerID> { admitted.union(zonesByPeer.keys) }
}
