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

    /// Tells the owner this peer left `zone`.
    static func leave(
        zone: String, owner: PeerID, address: PeerAddress, identity: PeerIdentity,
        timeout: Duration = .seconds(10)
    ) throws(AcceptError) {
        _ = try ShareGuest.exchange(
            ZoneNotice(type: .leaveNotice, zone: zone).frame, host: address.host, port: address.port,
            owner: owner,
            identity: identity, timeout: timeout)
    }
}
