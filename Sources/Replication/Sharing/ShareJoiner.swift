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
        var response = try request(
            url, identity: identity, library: library, advertised: advertised, deviceList: deviceList,
            timeout: timeout)
        if case .acceptTooEarly(let clock) = response {
            // This device's clock is behind the owner's: sign again after the owner's reading.
            response = try request(
                url, identity: identity, library: library, advertised: advertised, deviceList: deviceList,
                timeout: timeout, after: clock)
        }
        switch response {
        case .refused(let code, let message):
            throw .refused(code: code, message: message)
        case .acceptTooEarly:
            throw .refused(
                code: .acceptTooEarly,
                message:
                    "the owner dates this device's accept before its invitation twice: this device's clock "
                    + "is too far behind the owner's (or the owner's too far ahead)")
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
    /// One join request on a guest connection; to an owner that keeps the membership log,
    /// with this device's signed accepts (`JoinAccepts`), stamped after `after` if given.
    private static func request(
        _ url: ShareURL, identity: PeerIdentity, library: Library, advertised: [PeerAddress],
        deviceList: [[UInt8]], timeout: Duration, after: UInt64? = nil
    ) throws(AcceptError) -> JoinResponse {
        try ShareGuest.exchange(
            { capabilities in
                let signed =
                    capabilities.isSuperset(of: JoinRequest.acceptCapabilities)
                    && !deviceList.isEmpty
                let accepts =
                    signed
                    ? JoinAccepts.sign(
                        zone: url.zone, token: url.token, identity: identity, library: library, after: after)
                    : []
                return JoinRequest(zone: url.zone, token: url.token, accepts: accepts).frame
            }, host: url.host, port: url.port, owner: url.owner, identity: identity, timeout: timeout,
            advertised: advertised, deviceList: deviceList)
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
