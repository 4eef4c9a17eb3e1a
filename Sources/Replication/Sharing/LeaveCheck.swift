import Store

/// The owner's check of the signed `leave` a leave notice carries: a leave of the notice's
/// zone by the connection's device as its proven person, whose signature checks.
///
/// Why the notice is honoured anyway: the notice itself comes from the participant's own
/// device over TLS, so its record is marked removed as before; only a leave that checks
/// enters the log (a forged or mismatched one, or a removed member's, is dropped). A leave
/// that checks decides the record as it decides the log's entry: one told late, dated before
/// the person's later invitation, leaves that invitation standing in both.
enum LeaveCheck {
    /// A leave that checks, and what the log makes of it.
    struct Verdict: Equatable {
        /// The leave to store and push; nil when the log holds it already (told again), or
        /// sets it aside although it holds the entry it would end (from someone removed
        /// already, or after the stop).
        let kept: MembershipOperation?
        /// Whether the leaver's entry is over in the log with the leave: removed, or not held
        /// yet (the accept it follows may still be on its way from the member that admitted
        /// it). Not so when the person was invited again after the leave's stamp.
        let endsEntry: Bool
    }

    /// The verdict on the leave in `bytes` against the log of `zone` this library owns; nil
    /// for one that does not check (malformed, another person's or device's, a bad signature).
    static func checked(
        _ bytes: [UInt8], zone: String, from peer: PeerID, person: DeviceList, library: Library
    ) -> Verdict? {
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
        guard let state = log.state else { return Verdict(kept: operation, endsEntry: true) }
        let entry = state.participants[state.entryLeft(by: named, signer: peer)]
        let endsEntry = state.stopped || (entry?.status ?? .removed) == .removed
        // Kept, a leave set aside would be pushed to every member for nothing, and a removed
        // member sending one after another would spend the log's places.
        let setAside = log.rejection(of: operation.hash) != nil && entry != nil
        let new = !stored.log.contains(operation.hash)
        return Verdict(kept: new && !setAside ? operation : nil, endsEntry: endsEntry)
    }
}
