import Store
import Support

/// The participant's side of `peershare accept URL`: dial the owner named in the URL, check
/// its identity against the URL before anything secret is sent, present the token, and on
/// success record the zone in the shared store so replication picks it up.
public enum ShareJoiner {
    /// What a successful accept joined.
    public struct Joined: Equatable, Sendable {
        public let zone: String
        public let title: String
        public let permission: Permission
    }

    /// Joins the share of `url`; `advertised` is where this peer listens, told to the owner so
    /// that it can dial this peer too. A local copy this peer was removed from, or of a
    /// stopped share, is discarded first (it is purged anyway): only a live membership makes
    /// the accept an `alreadyMember` error.
    public static func join(
        _ url: ShareURL, identity: PeerIdentity, library: Library, advertised: [PeerAddress] = [],
        timeout: Duration = .seconds(10)
    ) throws(AcceptError) -> Joined {
        guard url.owner != identity.peerID else { throw .ownShare }
        do {
            _ = try discardRevokedCopy(of: url.zone, library: library)
            if try library.sharedStore.zones().contains(where: { $0.id == url.zone }) {
                throw AcceptError.alreadyMember(zone: url.zone)
            }
        } catch let error as AcceptError {
            throw error
        } catch {
            throw .local("\(error)")
        }
        let response = try ShareGuest.exchange(
            JoinRequest(zone: url.zone, token: url.token).frame, host: url.host, port: url.port,
            owner: url.owner,
            identity: identity, timeout: timeout, advertised: advertised)
        switch response {
        case .refused(let code, let message):
            throw .refused(code: code, message: message)
        case .accepted(let title, let permission):
            do {
                let address = PeerAddress(host: url.host, port: url.port).description
                try library.sharedStore.prepareParticipantZone(url.zone, owner: url.owner, address: address)
            } catch {
                throw .local("\(error)")
            }
            return Joined(zone: url.zone, title: title, permission: permission)
        }
    }
}

extension ShareJoiner {
    /// Purges this peer's copy of `zone` if the copy itself says the membership ended: the
    /// share was stopped, or this peer's participant record says `removed`. Returns true
    /// when a copy was purged (the caller refreshes replication's membership before joining
    /// again, so that the zone starts afresh on the connection).
    public static func discardRevokedCopy(of zone: String, library: Library) throws -> Bool {
        guard let copy = try library.sharedStore.share(zone) else { return false }
        let me = library.localPeer
        let removed = copy.participants.first { $0.peer == me }?.status == .removed
        guard copy.stopped || removed else { return false }
        try library.sharedStore.purge(zone: zone)
        return true
    }
}

/// The owner's side of the sharing messages: join requests (check the token and the
/// share's rules, record the participant as accepted), membership checks and leave notices.
public enum JoinHandler {
    /// Answers one sharing frame from `peer`.
    public static func answer(_ frame: Frame, from peer: PeerID, library: Library) -> [Frame] {
        do throws(WireError) {
            switch frame.type {
            case .joinRequest:
                return [respond(to: try JoinRequest(frame: frame), from: peer, library: library).frame]
            case .membershipCheck:
                return [check(try ZoneNotice(frame: frame).zone, of: peer, library: library).frame]
            case .leaveNotice:
                return [leave(try ZoneNotice(frame: frame).zone, by: peer, library: library).frame]
            default:
                return [JoinResponse.refused(code: "unexpected", message: "unexpected sharing message").frame]
            }
        } catch {
            return [JoinResponse.refused(code: "protocol_error", message: error.description).frame]
        }
    }

    public static func respond(to request: JoinRequest, from peer: PeerID, library: Library) -> JoinResponse {
        let store = library.privateStore
        do {
            let valid = try store.isValidInvitation(zone: request.zone, token: request.token)
            let permission = try store.admit(peer: peer, zone: request.zone, tokenIsValid: valid)
            let title = try store.share(request.zone)?.title ?? ""
            return .accepted(title: title, permission: permission)
        } catch let error as StoreError {
            if case .unknownZone = error { return unknownShare(request.zone) }
            return .refused(code: error.code, message: error.description)
        } catch {
            return .refused(code: "internal", message: "the owner could not check the invitation")
        }
    }

    /// Whether `peer` still takes part in `zone`: the answer a participant purges on.
    ///
    /// Only a participant of the zone (present or removed) learns anything: to every other
    /// peer the zone does not exist. A removed participant, or one whose share was stopped,
    /// is told so with the zone ID it asked about, never the title (which may have changed
    /// since it last saw it).
    static func check(_ zone: String, of peer: PeerID, library: Library) -> JoinResponse {
        guard let (share, record) = participation(of: peer, in: zone, library: library) else {
            return unknownShare(zone)
        }
        if record.status == .removed {
            return .refused(code: "removed", message: "the owner removed you from share \(zone)")
        }
        if share.stopped {
            return .refused(code: "stopped", message: "the owner stopped share \(zone)")
        }
        return .accepted(
            title: share.title, permission: record.permission == .none ? .readOnly : record.permission)
    }

    /// `peer` left `zone` (it has purged its copy): recorded as removed. A peer that never
    /// took part is answered as for a zone that does not exist.
    static func leave(_ zone: String, by peer: PeerID, library: Library) -> JoinResponse {
        guard participation(of: peer, in: zone, library: library) != nil else { return unknownShare(zone) }
        try? library.privateStore.participantLeft(zone: zone, peer: peer)
        return .refused(code: "left", message: "you left share \(zone)")
    }

    /// The share `zone` this library owns and `peer`'s record in it, if it has one.
    private static func participation(
        of peer: PeerID, in zone: String, library: Library
    ) -> (ShareInfo, Participant)? {
        guard let share = try? library.privateStore.share(zone), share.owner == library.localPeer,
            let record = share.participants.first(where: { $0.peer == peer })
        else { return nil }
        return (share, record)
    }

    private static func unknownShare(_ zone: String) -> JoinResponse {
        .refused(code: "unknown_share", message: "the owner has no share \(zone)")
    }
}

/// A participant's questions to an owner outside replication: is this membership still
/// valid, and "I left".
public enum ShareMembership {
    /// Asks the owner whether this peer still takes part in `zone`.
    public static func check(
        zone: String, owner: PeerID, address: PeerAddress, identity: PeerIdentity,
        timeout: Duration = .seconds(10)
    ) throws(AcceptError) -> JoinResponse {
        try ShareGuest.exchange(
            ZoneNotice(type: .membershipCheck, zone: zone).frame, host: address.host, port: address.port,
            owner: owner,
            identity: identity, timeout: timeout)
    }

    /// Tells the owner this peer left `zone`.
    public static func leave(
        zone: String, owner: PeerID, address: PeerAddress, identity: PeerIdentity,
        timeout: Duration = .seconds(10)
    ) throws(AcceptError) {
        _ = try ShareGuest.exchange(
            ZoneNotice(type: .leaveNotice, zone: zone).frame, host: address.host, port: address.port,
            owner: owner,
            identity: identity, timeout: timeout)
    }
}

/// Why `accept` failed, for the person who typed it.
public enum AcceptError: Error, Equatable, Sendable, CustomStringConvertible {
    case ownShare
    case alreadyMember(zone: String)
    case unreachable(address: String, reason: String)
    case wrongOwner(address: String, presented: PeerID, expected: PeerID)
    case refused(code: String, message: String)
    /// The owner serves as many joining connections as it allows: try again later.
    case busy(String)
    case protocolFailure(String)
    case local(String)

    public var description: String {
        switch self {
        case .ownShare: return "this is your own share: you cannot accept it"
        case .alreadyMember(let zone): return "you already take part in share \(zone)"
        case .unreachable(let address, let reason):
            return "cannot reach the share's owner at \(address): \(reason)"
        case .wrongOwner(let address, let presented, let expected):
            return
                "the daemon at \(address) is not the share's owner: it is \(presented), the URL names \(expected)"
        case .refused(_, let message): return "the owner refused: \(message)"
        case .busy(let message): return "the owner is busy: \(message)"
        case .protocolFailure(let detail): return "accepting failed: \(detail)"
        case .local(let detail): return "accepting failed here: \(detail)"
        }
    }

    /// A short machine-readable code for clients.
    public var code: String {
        switch self {
        case .ownShare: return "own_share"
        case .alreadyMember: return "already_member"
        case .unreachable: return "owner_unreachable"
        case .wrongOwner: return "wrong_owner"
        case .refused(let code, _): return code
        case .busy: return "owner_busy"
        case .protocolFailure: return "protocol_error"
        case .local: return "local_error"
        }
    }
}
