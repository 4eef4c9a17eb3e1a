import Store
import Support

/// A participant's questions to an owner outside replication: is this membership still
/// valid, and "I left".
enum ShareMembership {
    /// Asks the owner whether this peer still takes part in `zone`.
    static func check(
        zone: String, owner: PeerID, address: PeerAddress, identity: PeerIdentity,
        timeout: Duration = .seconds(10)
    ) throws(AcceptError) -> JoinResponse {
        try ShareGuest.exchange(
            ZoneNotice(type: .membershipCheck, zone: zone).frame, host: address.host, port: address.port,
            owner: owner,
            identity: identity, timeout: timeout)
    }

    /// Asks the owner to ratify this device's join of `zone`, which a member admitted while
    /// the owner was away (`MemberAdmission`): the join request `ratification` builds.
    static func ratify(
        zone: String, accepts: [MembershipOperation], owner: PeerID, address: PeerAddress,
        identity: PeerIdentity, deviceList: [[UInt8]], timeout: Duration = .seconds(10)
    ) throws(AcceptError) -> JoinResponse {
        try ShareGuest.exchange(
            ratification(zone: zone, accepts: accepts).frame, host: address.host, port: address.port,
            owner: owner, identity: identity, timeout: timeout, deviceList: deviceList)
    }

    /// The join request asking the owner to ratify a join of `zone`: this device's signed
    /// `accepts`, and the URL token one of them names, if any (a person's accept names none:
    /// the owner's log then needs its invitation of the person).
    static func ratification(zone: String, accepts: [MembershipOperation]) -> JoinRequest {
        let token = accepts.compactMap(\.action.acceptedToken).last
        return JoinRequest(
            zone: zone, token: token.map { String(decoding: $0, as: UTF8.self) } ?? "",
            accepts: accepts.map(\.encoded))
    }

    /// Tells the owner this peer left `zone`; to an owner that keeps the membership log,
    /// with this device's signed `leave` of its person (`signedLeave`, dated `stamp`), and
    /// its device list (`deviceList`) so that the owner can check it.
    static func leave(
        zone: String, owner: PeerID, address: PeerAddress, identity: PeerIdentity, library: Library? = nil,
        stamp: UInt64? = nil, deviceList: [[UInt8]] = [], timeout: Duration = .seconds(10)
    ) throws(AcceptError) {
        _ = try ShareGuest.exchange(
            { capabilities in
                var operation: [UInt8]?
                if let library, capabilities.isSuperset(of: JoinRequest.acceptCapabilities),
                    !deviceList.isEmpty
                {
                    operation =
                        signedLeave(zone: zone, stamp: stamp, identity: identity, library: library)?.encoded
                }
                return ZoneNotice(type: .leaveNotice, zone: zone, operation: operation).frame
            }, host: address.host, port: address.port, owner: owner, identity: identity, timeout: timeout,
            deviceList: deviceList)
    }

    /// This device's signed leave of `zone` for its person, dated `stamp`: the departure's,
    /// read when the share was left, so that each telling sends the same operation (an
    /// Ed25519 signature is deterministic), dated before whatever the owner did after it
    /// first heard of it. A departure an earlier version recorded has no stamp: its leave is
    /// dated now. Nil for a library without a person.
    static func signedLeave(
        zone: String, stamp: UInt64?, identity: PeerIdentity, library: Library
    ) -> MembershipOperation? {
        guard let person = try? library.privateStore.localPerson() else { return nil }
        return MembershipOperation.signed(
            .leave(person: person), zone: zone, stamp: stamp ?? library.sharedStore.nextStamp(),
            by: identity, of: person)
    }
}
