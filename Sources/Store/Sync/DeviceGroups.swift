/// Which devices belong to which person, as this library's checked device lists say.
///
/// Why: a person has several devices, each with its own key, and every one of them must be
/// able to speak for the person: any current device of a zone's owner administers and
/// relays for the owner, and any current device of a participant uses the participant's
/// record. The stores cannot check the signed lists (the cryptography is in Replication),
/// so Replication sets this from the lists it checked, at start and whenever one changes.
/// It is directional: a list naming a device gives that device the person's rights, never
/// the person the device's rights.
public struct DeviceGroups: Sendable, Equatable {
    /// This library's own person, once founded or joined.
    public var local: PersonID?
    /// Each known person's current devices (added and not removed).
    public var current: [PersonID: Set<PeerID>]
    /// Each known person's devices ever added, removed ones included: what an owner's
    /// device relays that a since-removed device of the owner wrote before its removal
    /// stays valid, so every replica keeps the same history.
    public var ever: [PersonID: Set<PeerID>]
    /// The person each device proved it belongs to by showing its list on its own
    /// connection: what tells a zone's owner person from its owner device before the share
    /// record names it (a list naming a device proves nothing about the device's own person).
    public var proven: [PeerID: PersonID]

    public init(
        local: PersonID? = nil, current: [PersonID: Set<PeerID>] = [:], ever: [PersonID: Set<PeerID>] = [:],
        proven: [PeerID: PersonID] = [:]
    ) {
        self.local = local
        self.current = current
        self.ever = ever
        self.proven = proven
    }

    /// This library's person's other current devices.
    public func siblings(of device: PeerID) -> Set<PeerID> {
        (local.flatMap { current[$0] } ?? []).subtracting([device])
    }

    /// The persons whose current list names `device`.
    public func persons(of device: PeerID) -> [PersonID] {
        current.compactMap { $0.value.contains(device) ? $0.key : nil }.sorted()
    }
}

/// Who speaks for a zone's owner: the owner device the zone was created by, or, once the
/// owner's person and device list are known, every current device of that person.
struct OwnerSide {
    let device: PeerID
    /// The owner person's current devices, when its list is known.
    let devices: Set<PeerID>?
    /// Devices the owner person ever had.
    let former: Set<PeerID>

    /// Whether `peer` speaks for the owner now.
    func includes(_ peer: PeerID) -> Bool { devices?.contains(peer) ?? (peer == device) }

    /// Whether `peer` spoke for the owner at some time: a change it wrote then, relayed by
    /// the owner's side, stays valid.
    func included(_ peer: PeerID) -> Bool { includes(peer) || former.contains(peer) || peer == device }
}
