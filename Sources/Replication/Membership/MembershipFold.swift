import Store
import Support

/// Folds verified membership operations, taken in fold order, into a `MembershipState`,
/// and says why each operation it sets aside has no effect.
///
/// Rules (docs/REPLICATION.md, "Membership operations"): the first operation must be the
/// create; a stop absorbs everything after it; for each person, the last operation naming
/// it decides its status and permission; an accept counts only if, at its place, the
/// person (or its device, invited under the device's ID) holds an invitation or a live
/// token admits it; removal cut-offs only move up.
struct MembershipFold: Sendable {
    private(set) var state: MembershipState?
    private(set) var rejections: [[UInt8]: MembershipError] = [:]

    /// Applies the next operation in fold order (one already checked on arrival).
    mutating func apply(_ operation: MembershipOperation) {
        if let reason = Self.apply(operation.action, signer: operation.signer, to: &state) {
            rejections[operation.hash] = reason
        }
    }

    private static func apply(
        _ action: MembershipOperation.Action, signer: PeerID, to state: inout MembershipState?
    ) -> MembershipError? {
        guard var current = state else {
            guard case .create(let owner, let title, let publicPermission) = action else {
                return .beforeCreate
            }
            state = MembershipState(owner: owner, title: title, publicPermission: publicPermission)
            return nil
        }
        guard !current.stopped else { return .afterStop }
        let reason = apply(action, signer: signer, to: &current)
        if reason == nil { state = current }
        return reason
    }

    private static func apply(
        _ action: MembershipOperation.Action, signer: PeerID, to state: inout MembershipState
    ) -> MembershipError? {
        switch action {
        case .create: return .alreadyCreated
        case .setTitle(let title): state.title = title
        case .setPublicPermission(let permission): state.publicPermission = permission
        case .addToken(let hash, let permission):
            guard !state.revokedTokens.contains(hash) else { return .revokedToken }
            state.tokens[hash] = permission
        case .revokeToken(let hash):
            state.tokens[hash] = nil
            state.revokedTokens.insert(hash)
        case .stop: state.stopped = true
        case .invite(let person, let permission):
            guard person != state.owner else { return .ownerIsNotAParticipant }
            if var participant = state.participants[person], participant.status == .accepted {
                participant.permission = permission
                state.participants[person] = participant
            } else {
                state.participants[person] = MembershipParticipant(permission: permission, status: .pending)
            }
        case .setPermission(let person, let permission):
            guard person != state.owner else { return .ownerIsNotAParticipant }
            guard var participant = state.participants[person], participant.status != .removed else {
                return .notAParticipant(person)
            }
            participant.permission = permission
            state.participants[person] = participant
        case .remove(let person, let cutoffs):
            guard person != state.owner else { return .ownerIsNotAParticipant }
            state.participants[person] = MembershipParticipant(permission: .none, status: .removed)
            for cutoff in cutoffs where (state.cutoffs[cutoff.device]?.seq).map({ cutoff.seq > $0 }) ?? true {
                state.cutoffs[cutoff.device] = cutoff
            }
        case .leave(let person):
            guard person != state.owner else { return .ownerIsNotAParticipant }
            let entry = state.entryLeft(by: person, signer: signer)
            guard let participant = state.participants[entry], participant.status != .removed else {
                return .notAParticipant(person)
            }
            state.participants[entry] = MembershipParticipant(permission: .none, status: .removed)
        case .accept(let person, let device, let token):
            return accept(person, device: device, token: token, in: &state)
        }
        return nil
    }

    /// An accept: valid through a live invitation (pending or already accepted) of the
    /// person, or else of its device (an invitation under the device's ID, which stays
    /// under that ID), else through a live token; a removed person needs a new invitation.
    private static func accept(
        _ person: PersonID, device: PeerID, token: [UInt8]?, in state: inout MembershipState
    ) -> MembershipError? {
        guard person != state.owner else { return .ownerIsNotAParticipant }
        let invited =
            state.participants[person] != nil
            ? person
            : PersonID(digest: device.bytes).flatMap { underDevice in
                state.participants[underDevice] != nil ? underDevice : nil
            }
        if let invited, var participant = state.participants[invited] {
            guard participant.status != .removed else { return .removedNotInvitedAgain(invited) }
            participant.status = .accepted
            participant.devices.insert(device)
            state.participants[invited] = participant
            return nil
        }
        guard let token else { return .notInvited(person) }
        let hash = SHA256Hasher.digest(token)
        if state.revokedTokens.contains(hash) { return .revokedToken }
        guard let own = state.tokens[hash] else { return .unknownToken }
        let permission = own == .none ? state.publicPermission : own
        guard permission != .none else { return .notPublic }
        state.participants[person] = MembershipParticipant(
            permission: permission, status: .accepted, devices: [device])
        return nil
    }
}
