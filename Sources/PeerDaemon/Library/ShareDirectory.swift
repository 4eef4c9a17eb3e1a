import ControlProtocol
import Replication
import Store
import Support

/// What the share commands need besides the stores: the URL a share is reached by, a
/// participant given by ID prefix, and the JSON shape of SPEC §9.
struct ShareDirectory: Sendable {
    let services: DaemonServices
    var library: Library { services.library }

    /// The owner's URL for a share: its advertised addresses (the first, then up to
    /// `ShareURL.maximumAddresses` more as `at=`), zone, peer ID, current token. Throws when
    /// there is no address another machine could dial (see `address()`).
    func url(zone: String) throws -> ShareURL {
        try url(zone: zone, addresses: try addresses())
    }

    /// The URL lists up to `share_url_members` accepted participants whose address the
    /// records hold, so that a joiner can join through one of them while the owner is away.
    private func url(zone: String, addresses: [PeerAddress]) throws -> ShareURL {
        let address = addresses[0]
        let share = try library.privateStore.share(zone)
        let members = (share?.participants ?? []).filter { $0.status == .accepted }.sorted {
            $0.peer < $1.peer
        }
        .compactMap { participant in
            participant.address.flatMap(PeerAddress.init(parsing:)).map {
                ShareURL.Member(peer: participant.peer, address: $0)
            }
        }
        let further = addresses.dropFirst()
        // This device's first URL of the share makes its token (on another device of the
        // owner, at its first `share show` or `share list`): the share's log learns it now.
        let (token, made) = try library.currentInvitation(zone: zone)
        if made { services.replication.engine.membershipRecordsChanged(zone: zone) }
        return ShareURL(
            host: address.host, port: address.port, zone: zone, owner: library.localPeer,
            token: token, title: share?.title,
            alsoAt: Array(further.prefix(ShareURL.maximumAddresses)),
            members: Array(members.prefix(services.state.settings.limits.shareURLMembers)))
    }

    /// The address share URLs carry: the first advertised one. With none (a wildcard
    /// listen address, no `advertise`, no interface but loopback up), a URL could not
    /// work, so this refuses, saying what to set.
    func address() throws -> PeerAddress {
        try addresses()[0]
    }

    /// Every advertised address, read once (the interfaces are listed each time); never
    /// empty: refused as `address()` is.
    private func addresses() throws -> [PeerAddress] {
        let all = services.state.advertiseAddresses
        guard !all.isEmpty else {
            let listen = services.state.listenAddress
            throw ControlError(
                .noAdvertisedAddress,
                "no address to put in a share URL: peershared listens on \(listen), a wildcard, and no "
                    + "network interface other than loopback is up; set advertise = HOST:PORT in peershared.conf "
                    + "(or start peershared with --advertise HOST:PORT) to the address peers should dial, "
                    + "then retry")
        }
        return all
    }

    func permission(_ text: String, allowNone: Bool = false) throws -> Permission {
        guard let permission = Permission(rawValue: text), allowNone || permission != .none else {
            let allowed = allowNone ? "none, read-only or read-write" : "read-only or read-write"
            throw ControlError(.invalidArguments, "'\(text)' is not a permission: use \(allowed)")
        }
        return permission
    }

    /// A participant of the share named by a unique prefix of its peer ID.
    /// The member `reference` names in `zone`: a participant's device ID or person ID, or a
    /// unique prefix of one.
    func member(_ reference: String, in zone: Library.Resolved) throws -> PeerID {
        let participants = try zone.store.share(zone.id)?.participants ?? []
        let ids = Set(
            participants.map(\.peer) + participants.compactMap { $0.person.map { PeerID(digest: $0.bytes)! } }
        )
        return try PeerReference.resolve(reference, among: ids.sorted(), kind: "participant")
    }

    /// The waiting request to join `zone` that `reference` names: its device's or its
    /// person's ID, or a unique prefix of one.
    func joinRequest(_ reference: String, in zone: Library.Resolved) throws -> JoinRequestRecord {
        let requests = try zone.store.pendingJoinRequests(zone: zone.id)
        func asPeer(_ person: PersonID?) -> PeerID? { person.map { PeerID(digest: $0.bytes)! } }
        let ids = Set(requests.map(\.device) + requests.compactMap { asPeer($0.person) })
        let named = try PeerReference.resolve(reference, among: ids.sorted(), kind: "join request")
        let matches = requests.filter { $0.device == named || asPeer($0.person) == named }
        guard let first = matches.first else {
            throw StoreError.notFound(kind: "join request", reference: reference)
        }
        guard matches.count == 1 else {
            throw StoreError.ambiguous(kind: "join request", reference: reference, matches: matches.count)
        }
        return first
    }

    /// Refuses an invitation of this library's own device or person.
    func requireNotSelf(_ member: PeerID) throws {
        let person = try library.privateStore.localPerson()
        guard member != library.localPeer, member.bytes != person?.bytes else {
            throw ControlError(
                .invalidArguments, "share.invite: you own this share; invite someone else's person ID")
        }
    }

    func participantJSON(_ zone: Library.Resolved, _ peer: PeerID) throws -> JSON {
        let record = try zone.store.participant(zone: zone.id, peer: peer)
        return [
            "id": .string(peer.description), "share": .string(zone.id), "peer_id": .string(peer.description),
            "person_id": record?.person.map { .string($0.description) } ?? .null,
            "permission": .string(record?.permission.rawValue ?? "none"),
            "status": .string(record?.status.rawValue ?? "removed"),
        ]
    }

    /// The shares `share list` shows: every one but those this peer owned and stopped (as
    /// the sample deletes them; the store keeps the stopped record so that the share's URL
    /// is refused with a clear reason and its participants are told to purge).
    func all() throws -> [ShareInfo] {
        try library.stores.flatMap { try $0.shares() }.filter(isListed)
    }

    /// A share that ended for this participant, as `share list` and `share show` give it.
    func json(_ ended: EndedShare) -> JSON {
        [
            "id": .string(ended.zone), "share": .string(ended.zone), "title": .string(ended.title),
            "role": "participant", "store": "shared", "owner": .string(ended.owner.description),
            "owner_person_id": ended.ownerPerson.map { .string($0.description) } ?? .null,
            "permission": "none", "stopped": .bool(ended.reason == .stopped), "participants": [],
            "ended": [
                "reason": .string(ended.reason.rawValue), "message": .string(ended.message),
                "at": StoreJSON.time(milliseconds: Int64(ended.endedAt)),
            ],
        ]
    }

    /// The ended share `reference` names (a unique prefix of its ID).
    func endedShare(_ reference: String) throws -> EndedShare {
        try UniquePrefix.match(
            reference.lowercased(), reference: reference, among: try library.sharedStore.endedShares(),
            kind: "share that ended", key: \.zone)
    }

    func isListed(_ share: ShareInfo) -> Bool {
        !(share.stopped && share.store == .private)
    }

    func json(_ share: ShareInfo) throws -> JSON {
        // Every share of the private store is this person's, made on this device or another.
        let mine = share.store == .private
        let groups = services.replication.engine.knownDeviceGroups
        let myPermission: String
        if mine {
            myPermission = Permission.readWrite.rawValue
        } else {
            // This device's record, or the accepted one of another device of this person.
            let own =
                share.participants.first { $0.peer == library.localPeer }
                ?? share.participants.first {
                    $0.status == .accepted && $0.person != nil && $0.person == groups.local
                }
            myPermission = own?.permission.rawValue ?? "none"
        }
        let names = DisplayNames(library.privateStore)
        let owner = names.of(share.owner, person: share.ownerPerson)
        /// A person's current devices, as far as this device knows its list.
        func devices(of person: PersonID?) -> JSON {
            guard let person, let devices = groups.current[person] else { return .array([]) }
            return .array(devices.sorted().map { .string($0.description) })
        }
        var object: [String: JSON] = [
            "id": .string(share.zone), "share": .string(share.zone), "title": .string(share.title),
            "role": .string(mine ? "owner" : "participant"), "store": .string(share.store.rawValue),
            "owner": .string(share.owner.description),
            "owner_person_id": share.ownerPerson.map { .string($0.description) } ?? .null,
            "owner_devices": devices(of: share.ownerPerson),
            "owner_person_name": owner.personName.map(JSON.string) ?? .null,
            "owner_device_name": owner.deviceName.map(JSON.string) ?? .null,
            "permission": .string(myPermission),
            "public_permission": .string(share.publicPermission.rawValue), "stopped": .bool(share.stopped),
            "participants": .array(
                share.participants.map {
                    let member = names.of($0.peer, person: $0.person)
                    return [
                        "id": .string($0.peer.description), "peer_id": .string($0.peer.description),
                        "person_id": $0.person.map { .string($0.description) } ?? .null,
                        "person_name": member.personName.map(JSON.string) ?? .null,
                        "device_name": member.deviceName.map(JSON.string) ?? .null,
                        "devices": devices(of: $0.person),
                        "permission": .string($0.permission.rawValue),
                        "status": .string($0.status.rawValue),
                        "address": $0.address.map(JSON.string) ?? .null,
                    ]
                }),
        ]
        // The signed membership log beside the records (docs/CONTROL.md).
        let membership = try MembershipSummary.of(share, in: library)
        object["membership"] = [
            "operations": .int(membership.operations), "matches_records": .bool(membership.matchesRecords),
            "participants": .array(
                membership.participants.sorted { $0.key.bytes.lexicographicallyPrecedes($1.key.bytes) }.map {
                    [
                        "id": .string($0.key.description), "person_id": .string($0.key.description),
                        "status": .string($0.value.status.rawValue),
                        "permission": .string($0.value.permission.rawValue),
                    ]
                }),
        ]
        // Uninvited devices waiting for `share approve` or `share deny`.
        if mine {
            object["requests"] = .array(
                try library.privateStore.pendingJoinRequests(zone: share.zone).map { request in
                    [
                        "id": .string(request.device.description),
                        "peer_id": .string(request.device.description),
                        "person_id": request.person.map { .string($0.description) } ?? .null,
                        "requested_at": StoreJSON.time(milliseconds: Int64(request.requestedAt)),
                    ]
                })
        }
        // Without an address there is no URL to show; share create and revoke say why.
        if mine && !share.stopped, let addresses = try? addresses() {
            object["url"] = .string(try url(zone: share.zone, addresses: addresses).description)
        }
        return .object(object)
    }
}

extension ControlError.Code {
    /// A share URL was asked for, but the daemon has no address other machines could dial.
    static let noAdvertisedAddress: Self = "no_advertised_address"
}
