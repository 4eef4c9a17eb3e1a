import Store

/// Why a membership operation is refused on arrival, or set aside by the fold. Each
/// message says what happened and what a person (or a developer reading a log) can do.
public enum MembershipError: Error, Equatable, Sendable, CustomStringConvertible {
    // Refused on arrival: the operation changes nothing and is not kept.

    /// The bytes are not a membership operation.
    case malformed(WireError)
    /// Written by a newer PeerShare.
    case newerFormat(version: UInt8, supported: UInt8)
    /// An operation of another zone.
    case wrongZone(operation: String, log: String)
    /// A stamp no clock reaches (`Stamp.invalidHLC` or beyond).
    case stampOutOfRange(UInt64)
    /// The signer is on no device list this peer holds for the person it names.
    case unknownSigner(device: PeerID, person: PersonID)
    case badSignature(signer: PeerID)
    /// An owner's action signed by a device of another person.
    case notSignedByOwner(action: String, signerPerson: PersonID)
    /// A create naming another owner than the zone's.
    case wrongOwner(named: PersonID, zoneOwner: PersonID)
    /// An accept or leave signed for another person, or an accept naming another device.
    case notSignedBySubject(action: String, signer: PeerID)
    case tooManyOperations(maximum: Int)
    /// More operations signed by one participant person than its share of the log.
    case tooManyOperationsSignedBy(PersonID, maximum: Int)

    // Set aside by the fold: kept (a later arrival may come before it), but void.

    /// Ordered before the zone's create (or the create itself is missing).
    case beforeCreate
    /// A second create.
    case alreadyCreated
    /// Ordered after the stop.
    case afterStop
    /// The owner is not a participant of its own zone.
    case ownerIsNotAParticipant
    /// A permission change or departure of someone who is not (or no longer) a participant.
    case notAParticipant(PersonID)
    /// An accept by a person who was removed and not invited again.
    case removedNotInvitedAgain(PersonID)
    /// An accept by a person with no invitation and no usable token.
    case notInvited(PersonID)
    case unknownToken
    case revokedToken
    /// An accept through the share URL while the zone's public permission is `none`.
    case notPublic

    public var description: String {
        switch self {
        case .malformed(let error): "malformed membership operation: \(error)"
        case .newerFormat(let version, let supported):
            "membership operation of format \(version), newer than this version reads (\(supported)): upgrade peershared"
        case .wrongZone(let operation, let log):
            "membership operation of zone \(operation) offered to zone \(log): it is refused"
        case .stampOutOfRange(let stamp):
            "membership operation stamped \(stamp), beyond any clock: the signer's clock is wrong"
        case .unknownSigner(let device, let person):
            "device \(device) is not on the device list of person \(person) held here: sync that person's device list first"
        case .badSignature(let signer):
            "the signature of device \(signer) does not match the membership operation"
        case .notSignedByOwner(let action, let person):
            "only a device of the zone's owner may \(action); this was signed by person \(person)"
        case .wrongOwner(let named, let owner):
            "a create naming owner \(named) for a zone owned by \(owner): it is refused"
        case .notSignedBySubject(let action, let signer):
            "device \(signer) may \(action) only for itself and its own person"
        case .tooManyOperations(let maximum):
            "a zone's membership holds at most \(maximum) operations: stop this share and create a new one"
        case .tooManyOperationsSignedBy(let person, let maximum):
            "person \(person) has signed \(maximum) membership operations of this zone, all it may until the owner "
                + "invites, changes or removes it again: this one is refused"
        case .beforeCreate: "membership operation dated before the zone was created: it has no effect"
        case .alreadyCreated: "the zone was already created: a second create has no effect"
        case .afterStop: "the zone was stopped: later membership operations have no effect"
        case .ownerIsNotAParticipant: "the owner cannot be invited, changed or removed in its own zone"
        case .notAParticipant(let person): "person \(person) is not a participant of the zone"
        case .removedNotInvitedAgain(let person):
            "person \(person) was removed from the zone: the owner must invite it again"
        case .notInvited(let person):
            "person \(person) is not invited to the zone: the owner must invite it or give it a share URL"
        case .unknownToken: "the share URL's token is not one of the zone: ask the owner for a new URL"
        case .revokedToken: "the share URL has been revoked: ask the owner for a new one"
        case .notPublic: "the share is private: the owner must invite the person first"
        }
    }
}
