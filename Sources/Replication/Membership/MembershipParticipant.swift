import Store

/// Where one person stands in a zone, as the membership fold leaves it.
public struct MembershipParticipant: Hashable, Sendable {
    public var permission: Permission
    public var status: ParticipantStatus
    /// The person's devices that accepted since it was last invited or admitted.
    public var devices: Set<PeerID>

    public init(permission: Permission, status: ParticipantStatus, devices: Set<PeerID> = []) {
        self.permission = permission
        self.status = status
        self.devices = devices
    }
}
