import Store
import Support

/// A member's answer to a join request for a share it takes part in (not owns): the owner
/// is away, so the joiner asked a member the share URL lists (SPEC §13).
///
/// What a member may do: check the joiner's signed accept against the share's signed
/// membership log as it holds it (the token's hash in an owner-signed operation, neither
/// used up nor revoked, or an invitation of the joiner's person), and if the log's fold
/// admits the joiner, keep the accept, pass it on to the other members and the owner, and
/// replicate the zone with the joiner. What it may not do: admit without an accept that
/// checks, invite, change a permission, or write the owner's records; the owner ratifies
/// the accept when it receives it (docs/REPLICATION.md, *Joining through a member*).
enum MemberAdmission {
    /// Whether `zone` is a share this library takes part in without owning it, so that a
    /// join request for it is the member's to answer.
    static func answers(_ zone: String, library: Library) -> Bool {
        guard let share = try? library.sharedStore.share(zone) else { return false }
        return share.owner != library.localPeer
    }

    /// Admits `peer` (whose device list proven on the connection is `person`, and which
    /// said it listens at `address`) if its accept checks against the zone's log; the kept
    /// accept goes to `publish`.
    static func respond(
        to request: JoinRequest, from peer: PeerID, person: DeviceList?, address: PeerAddress?,
        library: Library, publish: (String, [[UInt8]]) -> Void
    ) -> JoinResponse {
        let store = library.sharedStore
        let zone = request.zone
        do {
            guard let share = try store.share(zone), !share.stopped, try takesPart(share, library: library)
            else {
                return .refused(
                    code: .unknownShare, message: "this member does not take part in share \(zone)")
            }
            guard let person, !request.accepts.isEmpty else {
                return .refused(
                    code: .invalidAccept,
                    message: "a member admits only a join with the joiner's signed accept and device list; "
                        + "this device's version sends neither: try again when the owner is online")
            }
            guard let owner = try share.ownerPerson ?? library.privateStore.person(of: share.owner) else {
                return .refused(
                    code: .internalError,
                    message: "this member does not know the owner's person of share \(zone) yet")
            }
            let stored = try StoredMembership.load(
                zone: zone, owner: owner, from: store, privateStore: library.privateStore, also: [person])
            // The URL's token must be live, as the owner requires it.
            let token = SHA256Hasher.digest(Array(request.token.utf8))
            guard let live = stored.log.state, live.tokens[token] != nil, !live.revokedTokens.contains(token)
            else {
                return refusal(of: request, person: person, in: stored)
            }
            // Nil when the log holds the device accepted already: admitted, nothing stored.
            let accept: MembershipOperation?
            switch try JoinHandler.verdict(on: request, from: peer, person: person, in: stored, clock: store)
            {
            case .tooEarly(let clock): return .acceptTooEarly(clock: clock)
            case .none: return refusal(of: request, person: person, in: stored)
            case .keep(let operation): accept = operation
            case .unchanged: accept = nil
            }
            var log = stored.log
            if let accept { try? log.receive(accept, directory: stored.directory) }
            guard let state = log.state, let participant = state.participants[person.person],
                participant.status == .accepted
            else { return refusal(of: request, person: person, in: stored) }
            try library.privateStore.saveDeviceListEntries(
                person.entries.map { ($0.hash, $0.encoded) }, of: person.person)
            if let accept { try store.addMembershipOperations([(accept.hash, accept.encoded)], zone: zone) }
            try store.replaceLogMembers(zone: zone, admitted: state.admittedDevices)
            try store.addLogMember(.init(zone: zone, device: peer, address: address?.description))
            if let accept { publish(zone, [accept.encoded]) }
            return .accepted(title: state.title, permission: participant.permission)
        } catch let refusal as JoinHandler.AcceptRefusal {
            return .refused(code: .invalidAccept, message: refusal.message)
        } catch {
            return .refused(
                code: .internalError, message: "this member could not check the invitation: \(error)")
        }
    }

    /// Whether this library takes part in `share`: accepted by the records, or admitted by
    /// the log until the records name it.
    static func takesPart(_ share: ShareInfo, library: Library) throws -> Bool {
        let local = library.localPeer
        return takesPart(
            status: share.participants.first { $0.peer == local }?.status,
            admittedByLog: try library.sharedStore.logMembers().contains {
                $0.zone == share.zone && $0.device == local && $0.permission != nil
            })
    }

    /// The rule, given this device's record status in a zone (nil: no record) and whether the
    /// zone's log admits it: an accepted record takes part, a removed one does not, and
    /// otherwise (no record, or an invitation not yet accepted) the log decides.
    static func takesPart(status: ParticipantStatus?, admittedByLog: Bool) -> Bool {
        switch status {
        case .accepted: true
        case .removed: false
        case .pending, nil: admittedByLog
        }
    }

    /// Whether this device joined `zone` through a member and the owner's records do not
    /// say yet that it accepted (or was removed): the owner, asked, would not know of the
    /// join until it sees the accept.
    static func awaitsRatification(_ zone: String, library: Library) -> Bool {
        let local = library.localPeer
        let record = (try? library.sharedStore.share(zone))?.participants.first { $0.peer == local }
        guard record?.status != .accepted, record?.status != .removed,
            let members = try? library.sharedStore.logMembers()
        else { return false }
        return members.contains { $0.zone == zone && $0.device == local && $0.permission != nil }
    }

    /// What this device shows the owner to have its join of `zone` ratified: its own accept
    /// as the zone's log holds it (the member that admitted it relays the log back); else the
    /// accepts it sent with the join, kept since (the member went away, or was removed,
    /// before the log reached this device); else, for a join an earlier version made, a new
    /// accept without a token, which takes effect through an invitation of the person.
    static func ratificationAccepts(of zone: String, identity: PeerIdentity, library: Library)
        -> [MembershipOperation]
    {
        if let own = ownAccept(of: zone, library: library) { return [own] }
        let kept = ((try? library.sharedStore.joinAccepts(zone: zone)) ?? []).compactMap {
            try? MembershipOperation(decoding: $0)
        }
        // In the order the join sent them, the one without a token first: the owner keeps the
        // first its log takes, as the member did.
        let withToken = kept.filter { $0.action.acceptedToken != nil }
        let withoutToken = kept.filter { $0.action.acceptedToken == nil }
        if !kept.isEmpty { return withoutToken + withToken }
        return JoinAccepts.withoutToken(zone: zone, identity: identity, library: library).map { [$0] } ?? []
    }

    /// This device's own accept of `zone`, as the zone's log holds it.
    static func ownAccept(of zone: String, library: Library) -> MembershipOperation? {
        let local = library.localPeer
        let operations = ((try? library.sharedStore.membershipOperations(zone: zone)) ?? []).compactMap {
            try? MembershipOperation(decoding: $0)
        }
        return operations.filter {
            guard case .accept(_, let device, _) = $0.action else { return false }
            return device == local && $0.signer == local
        }.max { $0.stamp < $1.stamp }
    }

    /// The refusal of a join the log does not admit: no live invitation of the person, and
    /// the token's hash is not among the share's live tokens.
    private static func refusal(of request: JoinRequest, person: DeviceList, in stored: StoredMembership)
        -> JoinResponse
    {
        guard let state = stored.log.state else {
            return .refused(
                code: .internalError, message: "this member has not received the share's membership yet")
        }
        if state.participants[person.person]?.status == .removed {
            return .refused(code: .removed, message: "the owner removed you from share \(request.zone)")
        }
        return .refused(
            code: .permissionDenied,
            message:
                "the invitation in this URL is not valid (revoked or replaced by the owner); ask the owner "
                + "for a new URL")
    }
}
