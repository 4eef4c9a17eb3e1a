import Store

/// A zone's membership as the fold of its operations leaves it: the same on every peer
/// that holds the same operations.
public struct MembershipState: Hashable, Sendable {
    public let owner: PersonID
    public internal(set) var title: String
    public internal(set) var publicPermission: Permission
    /// Live URL tokens (SHA-256 of their text) and the permission each admits with:
    /// `none` for the zone's public permission, else the token's own.
    public internal(set) var tokens: [[UInt8]: Permission] = [:]
    /// Tokens revoked: a revoked token never admits again, whatever adds it later.
    public internal(set) var revokedTokens: Set<[UInt8]> = []
    public internal(set) var participants: [PersonID: MembershipParticipant] = [:]
    /// Removal cut-offs per device; each only ever moves up.
    public internal(set) var cutoffs: [PeerID: MembershipOperation.Cutoff] = [:]
    /// Absorbing: once stopped, nothing changes the state.
    public internal(set) var stopped = false

    init(owner: PersonID, title: String, publicPermission: Permission) {
        self.owner = owner
        self.title = title
        self.publicPermission = publicPermission
    }

    /// Whether `person` may write to the zone: its owner, or an accepted read-write
    /// participant, while the zone is not stopped.
    public func mayWrite(person: PersonID) -> Bool {
        guard !stopped else { return false }
        if person == owner { return true }
        guard let participant = participants[person] else { return false }
        return participant.status == .accepted && participant.permission == .readWrite
    }

    /// The entry a leave by `person`, signed by `signer`, ends: the person's, or else the one
    /// under the signing device's ID (an invitation of the device).
    func entryLeft(by person: PersonID, signer: PeerID) -> PersonID {
        participants[person] != nil ? person : PersonID(digest: signer.bytes) ?? person
    }

    /// The devices of accepted participants, with their person's permission: who a member
    /// replicates the zone with before the owner's records name them (`log_members`).
    /// Nobody while the zone is stopped.
    public var admittedDevices: [PeerID: Permission] {
        guard !stopped else { return [:] }
        var devices: [PeerID: Permission] = [:]
        for participant in participants.values where participant.status == .accepted {
            for device in participant.devices { devices[device] = participant.permission }
        }
        return devices
    }

    /// The highest removal cut-off recorded for `device`: its sets above `seq` come after
    /// its person's removal.
    public func cutoff(device: PeerID) -> MembershipOperation.Cutoff? { cutoffs[device] }
}
