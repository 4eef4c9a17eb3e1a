import Store

/// Compares a zone's folded membership with its share and participant records, and says
/// which owner operations would make the fold match them.
///
/// Why: until the log replaces the records (issue 12, step 2 part 2), the records are the
/// source of truth and the owner keeps its log in step with them by issuing what differs;
/// every peer uses the same comparison to say whether its log matches its records.
///
/// Rules: a record's person is the one the log already holds it under (an invitation made
/// under a device ID stays under that ID), else the record's `person`, else the ID the
/// record is under. The owner never signs an `accept` (the joiner does, with its join), so
/// it issues nothing for an accepted record whose fold is pending; and `matches` counts
/// such a record as matching only in a log that holds no accept at all: one issued for
/// records accepted before joins carried accepts (an upgrade).
enum MembershipReconciliation {
    /// What a person's records ask of the fold.
    private struct Wanted {
        var status: ParticipantStatus
        var permission: Permission
    }

    /// The operations, in order, that bring `state` in line with `share` (and, when
    /// `tokensKnown`, with the share URL's current token `token`, nil when none was made).
    /// Tokens in `othersTokens` (added by another device of the owner, whose URLs they are)
    /// are never revoked here.
    static func actions(
        state: MembershipState?, share: ShareInfo, owner: PersonID, token: [UInt8]?, tokensKnown: Bool,
        othersTokens: Set<[UInt8]> = []
    ) -> [MembershipOperation.Action] {
        var actions: [MembershipOperation.Action] = []
        if share.stopped {
            // A stopped share's record is a tombstone: only the stop is worth issuing.
            guard state?.stopped != true else { return [] }
            if state == nil {
                actions.append(
                    .create(owner: owner, title: share.title, publicPermission: share.publicPermission))
            }
            return actions + [.stop]
        }
        let current: MembershipState
        if let state {
            guard !state.stopped else { return [] }
            current = state
            if state.title != share.title { actions.append(.setTitle(share.title)) }
            if state.publicPermission != share.publicPermission {
                actions.append(.setPublicPermission(share.publicPermission))
            }
        } else {
            actions.append(
                .create(owner: owner, title: share.title, publicPermission: share.publicPermission))
            current = MembershipState(
                owner: owner, title: share.title, publicPermission: share.publicPermission)
        }
        if tokensKnown {
            for hash in current.tokens.keys.sorted(by: { $0.lexicographicallyPrecedes($1) })
            where hash != token && !othersTokens.contains(hash) {
                actions.append(.revokeToken(hash: hash))
            }
            if let token, current.tokens[token] == nil, !current.revokedTokens.contains(token) {
                actions.append(.addToken(hash: token, permission: .none))
            }
        }
        for (person, wanted) in wantedParticipants(share, in: current).sorted(by: {
            $0.key.bytes.lexicographicallyPrecedes($1.key.bytes)
        }) {
            let held = current.participants[person]
            switch wanted.status {
            case .removed:
                if let held, held.status != .removed { actions.append(.remove(person: person, cutoffs: [])) }
            case .pending, .accepted:
                if held == nil || held?.status == .removed {
                    actions.append(.invite(person: person, permission: wanted.permission))
                } else if held?.permission != wanted.permission {
                    actions.append(.setPermission(person: person, permission: wanted.permission))
                }
            }
        }
        return actions
    }

    /// The URL tokens `log` holds that a device other than `device` added: each device of
    /// the owner makes and revokes its own URLs.
    static func othersTokens(in log: MembershipLog, device: PeerID) -> Set<[UInt8]> {
        Set(
            log.operations.compactMap { operation in
                guard case .addToken(let hash, _) = operation.action, operation.signer != device else {
                    return nil
                }
                return hash
            })
    }

    /// Whether `state` matches the records: nothing to issue, no participant in the fold
    /// that no record names, and, when `strictAccepts` (the log holds an accept), every
    /// accepted record accepted in the fold.
    static func matches(
        state: MembershipState?, share: ShareInfo, owner: PersonID, token: [UInt8]?, tokensKnown: Bool,
        othersTokens: Set<[UInt8]> = [], strictAccepts: Bool = false
    ) -> Bool {
        guard let state else { return false }
        if share.stopped || state.stopped { return share.stopped && state.stopped }
        guard
            actions(
                state: state, share: share, owner: owner, token: token, tokensKnown: tokensKnown,
                othersTokens: othersTokens
            ).isEmpty
        else { return false }
        let wanted = wantedParticipants(share, in: state)
        if strictAccepts,
            wanted.contains(where: {
                $0.value.status == .accepted && state.participants[$0.key]?.status != .accepted
            })
        {
            return false
        }
        return state.participants.allSatisfy { $0.value.status == .removed || wanted[$0.key] != nil }
    }

    /// Each person the records name (the owner's own record aside) and what its records ask:
    /// the strongest status among them (accepted, then pending, then removed) with that
    /// record's permission.
    private static func wantedParticipants(_ share: ShareInfo, in state: MembershipState) -> [PersonID:
        Wanted]
    {
        var wanted: [PersonID: Wanted] = [:]
        for record in share.participants where record.peer != share.owner {
            guard let person = person(of: record, in: state), person != state.owner else { continue }
            let candidate = Wanted(status: record.status, permission: record.permission)
            if let existing = wanted[person], rank(existing.status) >= rank(candidate.status) { continue }
            wanted[person] = candidate
        }
        return wanted
    }

    /// The person a record stands for in the log (see the type's rules).
    static func person(of record: Participant, in state: MembershipState) -> PersonID? {
        guard let underID = PersonID(digest: record.peer.bytes) else { return nil }
        if state.participants[underID] != nil { return underID }
        return record.person ?? underID
    }

    private static func rank(_ status: ParticipantStatus) -> Int {
        switch status {
        case .accepted: 2
        case .pending: 1
        case .removed: 0
        }
    }
}
