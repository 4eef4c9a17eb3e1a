import Store

/// How a share's membership log stands beside its records, as `share show` reports it.
///
/// Why: while the log is only kept beside the records (issue 12, step 2 part 1), a user
/// or test must be able to see that every peer holds the same log and that its fold
/// agrees with the records. An accepted record counts as matching a pending fold until
/// part 2 adds the joiner-signed accept.
public struct MembershipSummary: Equatable, Sendable {
    /// Operations this library holds for the zone (those that still check).
    public let operations: Int
    /// True when the fold matches the share and participant records (and, on the owner,
    /// the share URL's token).
    public let matchesRecords: Bool

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
        let matches = MembershipReconciliation.matches(
            state: stored.log.state, share: share, owner: owner,
            token: owned ? try store.invitationTokenHash(zone: share.zone) : nil, tokensKnown: owned)
        return MembershipSummary(operations: stored.log.operations.count, matchesRecords: matches)
    }
}
