import Store

/// A participant's side of the membership log: operations a member (the owner or another
/// participant) sent for a zone this library holds are checked one by one against the zone's owner person and the device
/// lists this library stored, and only those that check are stored.
///
/// Why: the message proves nothing by itself, and a relay (once the mesh exists) could
/// forge or alter an operation; a forged one must never reach the log.
public enum MembershipIntake {
    /// What came of one message's operations.
    public struct Outcome: Equatable, Sendable {
        /// Operations new here, checked and stored (encoded): what goes on to the other members.
        public var kept: [[UInt8]]
        public var stored: Int { kept.count }
        /// Why each refused operation was refused.
        public var refused: [MembershipError]
    }

    /// Why a message's operations could not be checked at all.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unknownZone(String)
        case ownerPersonUnknown(zone: String, owner: PeerID)

        public var description: String {
            switch self {
            case .unknownZone(let zone): "zone \(zone) is not held here"
            case .ownerPersonUnknown(let zone, let owner):
                "the person of owner \(owner) of zone \(zone) is not known here yet: its device list comes "
                    + "after the next hello"
            }
        }
    }

    /// Checks `operations` of `zone` (held in the shared store, or, for a share this person
    /// owns that another of its devices sent, in the private store) and stores those that check.
    /// `sender` is the device list the sending connection's device proved (docs/PROTOCOL.md
    /// §7.6), if it sent one: it names the owner's person and devices when the share record
    /// or the stored lists do not yet (the operations of a first connection arrive before
    /// the zone's records).
    ///
    /// `signerLists` are the device lists the owner relayed for the persons signing accepts
    /// and leaves: each is checked on its own (`PersonProof.list`), and those of the
    /// signers of operations stored are stored too, so that the log still checks when it is
    /// loaded again.
    public static func receive(
        _ operations: [[UInt8]], zone: String, library: Library, sender: DeviceList? = nil,
        signerLists: [[[UInt8]]] = [], in kind: StoreKind = .shared
    ) throws -> Outcome {
        let store = library.store(kind)
        guard let share = try store.share(zone) else { throw Failure.unknownZone(zone) }
        let proven = sender.flatMap { $0.isOnList(share.owner) ? $0 : nil }
        let lists = signerLists.compactMap { try? PersonProof.list($0) }
        // A member relays the owner's list to a device that joined through it: taken as the
        // owner person's only when the zone's owner device founded it (the founding entry is
        // signed by its own device, so no other device can make such a list).
        let founded = lists.first { list in
            list.entries.contains {
                if case .found = $0.action { return $0.signer == share.owner } else { return false }
            }
        }
        guard
            let owner = try share.ownerPerson ?? library.privateStore.person(of: share.owner)
                ?? proven?.person ?? founded?.person
                ?? (kind == .private ? library.privateStore.localPerson() : nil)
        else {
            throw Failure.ownerPersonUnknown(zone: zone, owner: share.owner)
        }
        let relayed = lists.filter { $0.person != owner || $0.person == founded?.person }
        let signers = Set(operations.compactMap { try? MembershipOperation(decoding: $0).signerPerson })
        var stored = try StoredMembership.load(
            zone: zone, owner: owner, from: store, privateStore: library.privateStore,
            also: (proven.map { [$0] } ?? []) + relayed, signers: signers)
        let (kept, refused) = stored.receive(operations)
        let keptSigners = Set(kept.map(\.signerPerson))
        for list in relayed where keptSigners.contains(list.person) {
            try library.privateStore.saveDeviceListEntries(
                list.entries.map { ($0.hash, $0.encoded) }, of: list.person)
        }
        try store.addMembershipOperations(kept.map { ($0.hash, $0.encoded) }, zone: zone)
        // Who the log now admits: the members a participant replicates with before the
        // owner's records name them (persons who joined through a member).
        if !kept.isEmpty, let state = stored.log.state {
            try store.replaceLogMembers(zone: zone, admitted: state.admittedDevices)
        }
        return Outcome(kept: kept.map(\.encoded), refused: refused)
    }
}
