import Store

/// The owner's side of the membership log: for each share this library owns, signs the
/// operations that make the log's fold match the share and participant records.
///
/// Why: the records are still the source of truth (issue 12, step 2 part 1); the log is
/// kept beside them so that later steps can rely on it. Reconciling rather than hooking
/// every command also migrates shares made before the log: the first run signs their
/// create, invitations and the rest. The joiner-signed `accept` and the leaver-signed
/// `leave` are never issued here: they come with the join request and the leave notice
/// (`JoinHandler`).
struct MembershipIssuer: Sendable {
    let library: Library
    let identity: PeerIdentity

    /// Signs, checks and stores what each owned share's log lacks (every owned share when
    /// `zones` is nil, else those listed). Returns the new operations per zone; a zone that
    /// fails is reported through `failed` and skipped.
    func reconcile(
        zones: Set<String>? = nil, failed: (String, any Error) -> Void
    ) -> [String: [MembershipOperation]] {
        let store = library.privateStore
        let person: PersonID
        let shares: [ShareInfo]
        do {
            guard let local = try store.localPerson() else { return [:] }
            person = local
            // Every share of the private store is this person's: made here, or by another
            // of its devices (whose records arrive before or after its log: see below).
            shares = try store.shares().filter { share in
                share.zone != LibraryStore.defaultZone && (zones?.contains(share.zone) ?? true)
            }
        } catch {
            failed("every share", error)
            return [:]
        }
        var issued: [String: [MembershipOperation]] = [:]
        for share in shares where (share.ownerPerson ?? person) == person {
            do {
                let new = try reconcile(share, as: person)
                if !new.isEmpty { issued[share.zone] = new }
            } catch {
                failed(share.zone, error)
            }
        }
        return issued
    }

    private func reconcile(_ share: ShareInfo, as person: PersonID) throws -> [MembershipOperation] {
        let store = library.privateStore
        var stored = try StoredMembership.load(
            zone: share.zone, owner: person, from: store, privateStore: store)
        // Only the device that made a share founds its log: another device of the person
        // that has the records but not yet the log would sign a second `create`.
        guard share.owner == library.localPeer || stored.log.state != nil else { return [] }
        let actions = MembershipReconciliation.actions(
            state: stored.log.state, share: share, owner: person,
            token: try store.invitationTokenHash(zone: share.zone), tokensKnown: true,
            othersTokens: MembershipReconciliation.othersTokens(in: stored.log, device: library.localPeer))
        var issued: [MembershipOperation] = []
        for action in actions {
            let operation = MembershipOperation.signed(
                action, zone: share.zone, stamp: store.nextStamp(), by: identity, of: person)
            try stored.log.receive(operation, directory: stored.directory)
            issued.append(operation)
        }
        try store.addMembershipOperations(issued.map { ($0.hash, $0.encoded) }, zone: share.zone)
        return issued
    }
}
