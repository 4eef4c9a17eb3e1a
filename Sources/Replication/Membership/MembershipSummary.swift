import Store

/// How a share's membership log stands beside its records, as `share show` reports it.
///
/// Why: while the log is only kept beside the records (issue 12, step 2), a user or test
/// must be able to see that every peer holds the same log, that its fold agrees with the
/// records, and where each participant stands in the fold. An accepted record counts as
/// matching a pending fold only in a log without any accept (records accepted before joins
/// carried the joiner-signed accept).
public struct MembershipSummary: Equatable, Sendable {
    /// Operations this library holds for the zone (those that still check).
    public let operations: Int
    /// True when the fold matches the share and participant records (and, on the owner,
    /// the share URL's token).
    public let matchesRecords: Bool
    /// Each person in the fold (the owner aside) and where it stands.
    public let participants: [PersonID: MembershipParticipant]

    public init(
        operations: Int, matchesRecords: Bool, participants: [PersonID: MembershipParticipant] = [:]
    ) {
        self.operations = operations
        self.matchesRecords = matchesRecords
        self.participants = participants
    }

    /// The summary of `share` as `library` holds it.
    public static func of(_ share: ShareInfo, in library: Library) throws -> MembershipSummary {
        let store = library.store(share.store)
        let owner =
            share.store == .private
            ? try share.ownerPerson ?? library.privateStore.localPerson()
            : try share.ownerPerson ?? library.privateStore.person(of: share.owner)
        guard let owner else { return MembershipSummary(operations: 0, matchesRecords: false) }
        let stored = try StoredMembership.load(
            zone: share.zone, owner: owner, from: store, privateStore: library.privateStore)
        let owned = share.store == .private
        let hasAccepts = stored.log.operations.contains {
            if case .accept = $0.action { return true }
            return false
        }
        let matches = MembershipReconciliation.matches(
            state: stored.log.state, share: share, owner: owner,
            token: owned ? try store.invitationTokenHash(zone: share.zone) : nil, tokensKnown: owned,
            othersTokens: MembershipReconciliation.othersTokens(in: stored.log, device: library.localPeer),
            strictAccepts: hasAccepts)
        return MembershipSummary(
            operations: stored.log.operations.count, matchesRecords: matches,
            participants: stored.log.state?.participants ?? [:])
    }
}
