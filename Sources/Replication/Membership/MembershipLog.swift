import Store

/// A zone's membership operations, each checked on arrival, and the state their fold
/// leaves: the answer to "who may do what in this zone" that every peer reaches alike.
///
/// Why: members relay membership operations to each other in any order, duplicated or
/// late, and with no server to ask every peer must reach the same state from the same
/// set of operations. So each operation is checked on its own when it arrives (zone,
/// signature, signer's device list, who may sign it), kept in a total order (stamp,
/// signer, hash), and the state is the fold of them all in that order. An operation the
/// fold sets aside (an accept without an invitation, say) is kept, since an operation
/// that arrives later may come before it and make it count.
public struct MembershipLog: Sendable {
    /// At most this many operations per zone: membership changes are made by hand.
    public static let maximumOperations = 10_000
    /// Of `maximumOperations`, the last this many are for the owner's own: participants'
    /// operations (accepts, leaves) cannot take them, so the owner can always remove.
    public static let ownerReserve = 1_000
    /// At most this many operations signed by one participant person, plus
    /// `operationsPerOwnerMention` for each of the owner's operations naming it (invitation,
    /// permission change, removal). An honest person signs an accept per device and
    /// invitation, and a leave: far fewer. Without a bound, a member signing accept after
    /// accept (each valid, each kept) filled the log, and every replica's, to its maximum.
    public static let operationsPerParticipant = 32
    public static let operationsPerOwnerMention = 8

    public let zone: String
    /// The zone's owner person, known to whoever holds the zone (its URL, its store): only
    /// a create naming this person, signed by one of its devices, founds the membership.
    public let owner: PersonID
    /// Every operation kept, in fold order.
    public private(set) var operations: [MembershipOperation] = []
    private var hashes: Set<[UInt8]> = []
    private var fold = MembershipFold()
    /// Operations kept per participant person that signed them.
    private var signedBy: [PersonID: Int] = [:]
    /// The owner's operations kept per person they name.
    private var ownerMentions: [PersonID: Int] = [:]

    public init(zone: String, owner: PersonID) {
        self.zone = zone
        self.owner = owner
    }

    /// The folded membership; nil until the create has arrived (the operations received
    /// before it wait in the log, within `maximumOperations`).
    public var state: MembershipState? { fold.state }

    /// Why the fold set the operation with this hash aside; nil when it took effect (or
    /// is not here).
    public func rejection(of hash: [UInt8]) -> MembershipError? { fold.rejections[hash] }

    public func contains(_ hash: [UInt8]) -> Bool { hashes.contains(hash) }

    /// Whether `person` may write to the zone now (see `MembershipState.mayWrite`).
    public func mayWrite(person: PersonID) -> Bool { state?.mayWrite(person: person) ?? false }

    /// The removal cut-off recorded for `device`, if any.
    public func cutoff(device: PeerID) -> MembershipOperation.Cutoff? { state?.cutoff(device: device) }

    /// Adds an operation received from anyone, or made here. A duplicate is ignored; one
    /// that fails a check is refused with the reason, changing nothing.
    public mutating func receive(
        _ operation: MembershipOperation, directory: some DeviceDirectory
    ) throws(MembershipError) {
        guard !hashes.contains(operation.hash) else { return }
        try check(operation, directory: directory)
        let signer = operation.signerPerson
        if signer == owner {
            guard operations.count < Self.maximumOperations else {
                throw .tooManyOperations(maximum: Self.maximumOperations)
            }
            if let named = operation.action.namedPerson { ownerMentions[named, default: 0] += 1 }
        } else {
            guard operations.count < Self.maximumOperations - Self.ownerReserve else {
                throw .tooManyOperations(maximum: Self.maximumOperations - Self.ownerReserve)
            }
            let mentions = ownerMentions[signer, default: 0]
            let allowed = Self.operationsPerParticipant + Self.operationsPerOwnerMention * mentions
            guard signedBy[signer, default: 0] < allowed else {
                throw .tooManyOperationsSignedBy(signer, maximum: allowed)
            }
            signedBy[signer, default: 0] += 1
        }
        let place = insertionIndex(of: operation)
        operations.insert(operation, at: place)
        hashes.insert(operation.hash)
        if place == operations.count - 1 {
            fold.apply(operation)
        } else {
            // It comes before operations already folded: fold everything again.
            fold = MembershipFold()
            for kept in operations { fold.apply(kept) }
        }
    }

    /// The checks one operation passes on its own, whatever else the log holds.
    private func check(_ operation: MembershipOperation, directory: some DeviceDirectory)
        throws(MembershipError)
    {
        guard operation.zone == zone else { throw .wrongZone(operation: operation.zone, log: zone) }
        guard operation.stamp < Stamp.invalidHLC else { throw .stampOutOfRange(operation.stamp) }
        switch operation.action {
        case .accept(let person, let device, _):
            guard operation.signerPerson == person, operation.signer == device else {
                throw .notSignedBySubject(action: operation.action.name, signer: operation.signer)
            }
        case .leave(let person):
            guard operation.signerPerson == person else {
                throw .notSignedBySubject(action: operation.action.name, signer: operation.signer)
            }
        default:
            guard operation.signerPerson == owner else {
                throw .notSignedByOwner(action: operation.action.name, signerPerson: operation.signerPerson)
            }
            if case .create(let named, _, _) = operation.action, named != owner {
                throw .wrongOwner(named: named, zoneOwner: owner)
            }
        }
        guard let certificate = directory.certificate(of: operation.signer, person: operation.signerPerson)
        else {
            throw .unknownSigner(device: operation.signer, person: operation.signerPerson)
        }
        guard CheckedSignatures.isSigned(operation, withKeyIn: certificate) else {
            throw .badSignature(signer: operation.signer)
        }
    }

    /// Where `operation` goes in fold order (binary search).
    private func insertionIndex(of operation: MembershipOperation) -> Int {
        var low = 0
        var high = operations.count
        while low < high {
            let middle = (low + high) / 2
            if MembershipOperation.foldOrder(operations[middle], operation) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}
