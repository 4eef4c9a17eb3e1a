import Store

/// The owner's check of the signed `leave` a leave notice carries: a leave of the notice's
/// zone by the connection's device as its proven person, whose signature checks.
///
/// Why the notice is honoured anyway: the notice itself comes from the participant's own
/// device over TLS, so its record is marked removed as before; only a leave that checks and
/// ends a membership enters the log (a forged or mismatched one, or a removed member's, is
/// dropped).
enum LeaveCheck {
    /// The leave operation in `bytes` if it checks against the log of `zone` this library
    /// owns; nil otherwise.
    static func checked(
        _ bytes: [UInt8], zone: String, from peer: PeerID, person: DeviceList?, library: Library
    ) -> MembershipOperation? {
        let store = library.privateStore
        guard let person, let operation = try? MembershipOperation(decoding: bytes),
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
        // A leave the fold sets aside (its person removed already, or never a participant)
        // would be kept for good and pushed to every member all the same: a removed member
        // sending one after another could fill the log to `MembershipLog.maximumOperations`,
        // after which the owner could not invite or remove anyone in the zone.
        guard log.rejection(of: operation.hash) == nil else { return nil }
        return operation
    }
}
