import Store
import Support

/// The participant's side of `peershare accept URL`: dial the owner named in the URL, check
/// its identity against the URL before anything secret is sent, present the token, and on
/// success record the zone in the shared store so replication picks it up.
///
/// `ReplicationEngine.accept` runs it, and refreshes replication around it.
public enum ShareJoiner {
    /// What a successful accept joined.
    public struct Joined: Equatable, Sendable {
        public let zone: String
        public let title: String
        public let permission: Permission
        /// The member that admitted this device while the owner could not be reached; nil
        /// when the owner did.
        public var via: PeerID? = nil
    }

    /// Joins the share of `url`; `advertised` is where this peer listens, told to the owner so
    /// that it can dial this peer too. A local copy this peer was removed from, or of a
    /// stopped share, is discarded first (it is purged anyway): only a live membership makes
    /// the accept an `alreadyMember` error.
    static func join(
        _ url: ShareURL, identity: PeerIdentity, library: Library, advertised: [PeerAddress] = [],
        deviceList: [[UInt8]] = [], timeout: Duration = .seconds(10)
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
        let (response, answered, accepts) = try ask(
            url, identity: identity, library: library, advertised: advertised, deviceList: deviceList,
            timeout: timeout)
        let via = answered.peer == url.owner ? nil : answered
        switch response {
        case .refused(let code, let message):
            if let via { throw .memberRefused(member: via.peer, code: code, message: message) }
            throw .refused(code: code, message: message)
        case .acceptTooEarly:
            throw .refused(
                code: .acceptTooEarly,
                message:
                    "the owner dates this device's accept before its invitation twice: this device's clock "
                    + "is too far behind the owner's (or the owner's too far ahead)")
        case .accepted(let title, let permission):
            do {
                // The owner's address that answered, or the URL's first.
                let address = (via == nil ? answered.address : url.ownerAddresses[0]).description
                try library.sharedStore.prepareParticipantZone(url.zone, owner: url.owner, address: address)
                if let via {
                    // Admitted by a member, by the share's signed log: until the owner's records
                    // name this device, the log's word (kept here) lets it write and the member
                    // replicates the zone with it.
                    try library.sharedStore.addLogMember(
                        .init(zone: url.zone, device: identity.peerID, permission: permission))
                    try library.sharedStore.addLogMember(
                        .init(zone: url.zone, device: via.peer, address: via.address.description))
                    // Shown to the owner for ratification if the log holding the one the
                    // member kept never reaches this device.
                    try library.sharedStore.keepJoinAccepts(accepts, zone: url.zone)
                }
            } catch {
                throw .local("\(error)")
            }
            return Joined(zone: url.zone, title: title, permission: permission, via: via?.peer)
        }
    }

    /// Asks the owner at each address the URL gives, then each member the URL lists, while
    /// the one before could not be reached (or no longer holds the share); returns the answer,
    /// who gave it (the owner at one of its addresses, or a member) and the accepts the
    /// request carried. The owner's own refusal is final, and so is a member's but for an
    /// unknown share.
    private static func ask(
        _ url: ShareURL, identity: PeerIdentity, library: Library, advertised: [PeerAddress],
        deviceList: [[UInt8]], timeout: Duration
    ) throws(AcceptError) -> (JoinResponse, ShareURL.Member, accepts: [[UInt8]]) {
        let owners = url.ownerAddresses.map { ShareURL.Member(peer: url.owner, address: $0) }
        let members = url.members.filter { $0.peer != identity.peerID && $0.peer != url.owner }
        var failures: [String] = []
        var first: AcceptError?
        for member in owners + members {
            let isOwner = member.peer == url.owner
            do {
                let (response, accepts) = try askOne(
                    member, url: url, identity: identity, library: library, advertised: advertised,
                    deviceList: deviceList, timeout: timeout)
                if !isOwner, case .refused(.unknownShare, let message) = response {
                    failures.append("\(member.peer) at \(member.address): \(message)")
                    continue
                }
                return (response, member, accepts)
            } catch {
                switch error {
                case .unreachable(_, let reason), .busy(let reason):
                    if first != nil { failures.append("\(member.peer) at \(member.address): \(reason)") }
                case .wrongOwner(_, let presented, _):
                    if first != nil {
                        failures.append(
                            "\(member.peer) at \(member.address): another daemon (\(presented)) answers there"
                        )
                    }
                default:
                    throw error
                }
                if first == nil { first = error }
            }
        }
        guard owners.count + members.count > 1, let first else {
            throw first ?? .protocolFailure("nobody to ask")
        }
        var others: [String] = []
        if owners.count > 1 { others.append("the owner's \(owners.count - 1) other addresses") }
        if !members.isEmpty { others.append("any of the \(members.count) members the URL lists") }
        let rest = "nor " + others.joined(separator: " nor ") + " (" + failures.joined(separator: "; ") + ")"
        switch first {
        case .unreachable(let address, let reason):
            throw .unreachable(address: address, reason: reason + "; " + rest)
        case .busy(let reason):
            throw .busy(reason + "; " + rest)
        default:
            throw .unreachable(address: owners[0].address.description, reason: "\(first); " + rest)
        }
    }

    /// The join request to one member (the owner or another), signed again after the
    /// member's clock reading if it dates this device's accept too early; the answer and the
    /// accepts the request carried.
    private static func askOne(
        _ member: ShareURL.Member, url: ShareURL, identity: PeerIdentity, library: Library,
        advertised: [PeerAddress], deviceList: [[UInt8]], timeout: Duration
    ) throws(AcceptError) -> (JoinResponse, [[UInt8]]) {
        let first = try request(
            url, at: member, identity: identity, library: library, advertised: advertised,
            deviceList: deviceList, timeout: timeout)
        guard case .acceptTooEarly(let clock) = first.0 else { return first }
        // This device's clock is behind the member's: sign again after its reading.
        return try request(
            url, at: member, identity: identity, library: library, advertised: advertised,
            deviceList: deviceList, timeout: timeout, after: clock)
    }
}

extension ShareJoiner {
    /// One join request on a guest connection to `member` (the owner or another member),
    /// with this device's signed accepts (`JoinAccepts`), stamped after `after` if given: the
    /// answer, and the accepts sent.
    private static func request(
        _ url: ShareURL, at member: ShareURL.Member, identity: PeerIdentity, library: Library,
        advertised: [PeerAddress], deviceList: [[UInt8]], timeout: Duration, after: UInt64? = nil
    ) throws(AcceptError) -> (JoinResponse, [[UInt8]]) {
        var sent: [[UInt8]] = []
        let response = try ShareGuest.exchange(
            { capabilities in
                let signed =
                    capabilities.isSuperset(of: JoinRequest.acceptCapabilities)
                    && !deviceList.isEmpty
                let accepts =
                    signed
                    ? JoinAccepts.sign(
                        zone: url.zone, token: url.token, identity: identity, library: library, after: after)
                    : []
                sent = accepts
                return JoinRequest(zone: url.zone, token: url.token, accepts: accepts).frame
            }, host: member.address.host, port: member.address.port, owner: member.peer, identity: identity,
            timeout: timeout, advertised: advertised, deviceList: deviceList)
        return (response, sent)
    }

    /// Purges this peer's copy of `zone` if the copy itself says the membership ended: the
    /// share was stopped, or this peer's participant record says `removed`. Returns true
    /// when a copy was purged (the caller refreshes replication's membership before joining
    /// again, so that the zone starts afresh on the connection).
    static func discardRevokedCopy(of zone: String, library: Library) throws -> Bool {
        guard let copy = try library.sharedStore.share(zone) else { return false }
        let me = library.localPeer
        let removed = copy.participants.first { $0.peer == me }?.status == .removed
        guard copy.stopped || removed else { return false }
        try library.sharedStore.purge(zone: zone)
        return true
    }
}
