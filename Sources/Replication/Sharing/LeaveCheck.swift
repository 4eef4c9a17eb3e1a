import Store

/// The owner's check of the signed `leave` a leave notice carries: a leave of the notice's
/// zone by the connection's device as its proven person, whose signature checks.
///
/// Why the notice is honoured anyway: the notice itself comes from the participant's own
/// device over TLS, so its record is marked removed as before; only a leave that checks
/// enters the log (a forged or mismatched one, or a removed member's, is dropped).
enum LeaveCheck {
    /// The leave operation in `bytes` if it checks against the log of `zone` this library
    /// owns; nil otherwise.
    static func checked(
        _ bytes: [UInt8], zone: String, from peer: PeerID, person: DeviceList, library: Library
    ) -> MembershipOperation? {
        let store = library.privateStore
        guard let operation = try? MembershipOperation(decoding: bytes),
            case .leave(let named) = operation.action, named == person.person, operation.signer == peer,
            let owner = try? store.localPerson(),
            let stored = try? StoredMembership.load(
                zone: zone, owner: owner, from: store, privateStore: store, also: [person])
        else { return nil }
        var log = stored.log
        do throws(MembershipError) {
            try log.receive(operation, directory: stored.directory)
        } catch {
            return nil
        }
        // A leave the fold sets aside although the log holds the entry it would end comes
        // from someone removed already, or after the stop: kept, it would be pushed to every
        // member for nothing, and a removed member sending one after another would spend the
        // log's places. One whose entry the log does not hold yet is kept: the accept it
        // follows may still be on its way from the member that admitted it.
        if log.rejection(of: operation.hash) != nil, let state = log.state,
            state.participants[state.entryLeft(by: named, signer: peer)] != nil
        {
            return nil
        }
        return operation
    }
}
