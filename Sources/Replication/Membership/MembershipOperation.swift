import Store
import Support

/// One signed change of one zone's membership: its creation, a title or public permission,
/// an invitation (of a person or by URL token), a permission, a removal, the stop, or a
/// person's acceptance or departure.
///
/// Why: once members relay each other's records, a zone's membership must carry its own
/// proof. Each operation is signed by a device of the person entitled to it (the owner,
/// or the accepting or leaving person), covers its zone, and is dated by the signer's
/// hybrid logical clock, so every peer can check it and fold the same operations into the
/// same state (`MembershipLog`) whatever order they arrived in.
public struct MembershipOperation: Hashable, Sendable {
    /// What the operation does.
    public enum Action: Hashable, Sendable {
        /// Founds the zone's membership: its owner person, title and public permission.
        case create(owner: PersonID, title: String, publicPermission: Permission)
        case setTitle(String)
        case setPublicPermission(Permission)
        /// Invites a person (read-only or read-write); the person still has to accept.
        case invite(person: PersonID, permission: Permission)
        /// Adds a URL token, kept as the SHA-256 of its text. With permission `none` it
        /// admits with the zone's public permission (the share URL); otherwise with its own.
        case addToken(hash: [UInt8], permission: Permission)
        /// Revokes a URL token for good.
        case revokeToken(hash: [UInt8])
        /// Changes a participant's permission (read-only or read-write).
        case setPermission(person: PersonID, permission: Permission)
        /// Removes a person, with the cut-off of each of its devices (see `Cutoff`).
        case remove(person: PersonID, cutoffs: [Cutoff])
        /// Stops the zone: nothing after it changes anything.
        case stop
        /// Written by the joining person's device: the token's text for a join by URL
        /// token, nil for a person invitation.
        case accept(person: PersonID, device: PeerID, token: [UInt8]?)
        /// Written by the leaving person's device.
        case leave(person: PersonID)
    }

    /// The format of the signed bytes; a newer one is refused, not guessed at.
    public static let formatVersion: UInt8 = 1
    /// Longest zone ID, in UTF-8 bytes (as `MessageLimits.maxZoneIDBytes`).
    public static let maximumZoneBytes = 200
    /// Longest title, in UTF-8 bytes: one a join response can carry.
    public static let maximumTitleBytes = 4096
    /// Longest URL token text, in bytes (as the join request's).
    public static let maximumTokenBytes = 128
    /// Most cut-offs in one removal: one per device a person's list can hold.
    public static let maximumCutoffs = DeviceList.maximumEntries

    /// The zone ID, as the store writes it.
    public let zone: String
    public let action: Action
    /// The signer's hybrid-logical-clock reading (see `Stamp`): the operation's place in
    /// the fold.
    public let stamp: UInt64
    /// The device that signed.
    public let signer: PeerID
    /// The person the signing device belongs to.
    public let signerPerson: PersonID
    public let signature: [UInt8]

    /// SHA-256 of the encoded operation (signature included): how duplicates are told.
    public let hash: [UInt8]

    init(
        zone: String, action: Action, stamp: UInt64, signer: PeerID, signerPerson: PersonID,
        signature: [UInt8]
    ) {
        self.zone = zone
        self.action = action
        self.stamp = stamp
        self.signer = signer
        self.signerPerson = signerPerson
        self.signature = signature
        self.hash = SHA256Hasher.digest(
            Self.body(zone: zone, action: action, stamp: stamp, signer: signer, signerPerson: signerPerson)
                + signature)
    }

    /// Signs a new operation of `zone` with `identity`, a device of `person`. Cut-offs are
    /// put in device order, as the encoding requires.
    public static func signed(
        _ action: Action, zone: String, stamp: UInt64, by identity: PeerIdentity, of person: PersonID
    ) -> MembershipOperation {
        let action = action.canonical
        let body = body(
            zone: zone, action: action, stamp: stamp, signer: identity.peerID, signerPerson: person)
        return MembershipOperation(
            zone: zone, action: action, stamp: stamp, signer: identity.peerID, signerPerson: person,
            signature: Signature.sign(signedMessage(body), with: identity))
    }

    /// What the signature covers: a domain tag, then the body (which holds the zone). The
    /// tag keeps an operation from passing for a device-list entry or any other signed
    /// record; the zone keeps it from being replayed into another zone.
    static func signedMessage(_ body: [UInt8]) -> [UInt8] {
        Array("peershare membership v1\0".utf8) + body
    }

    var body: [UInt8] {
        Self.body(zone: zone, action: action, stamp: stamp, signer: signer, signerPerson: signerPerson)
    }

    /// The encoded operation: body, then signature.
    public var encoded: [UInt8] { body + signature }

    /// Whether the signature is `signer`'s over this operation, checked with `certificate`.
    func isSigned(withKeyIn certificate: [UInt8]) -> Bool {
        Signature.verify(signature, of: Self.signedMessage(body), certificateDER: certificate)
    }

    /// The fold's order: stamp, then signer bytes, then hash. Total, and the same on every
    /// peer.
    public static func foldOrder(_ a: MembershipOperation, _ b: MembershipOperation) -> Bool {
        if a.stamp != b.stamp { return a.stamp < b.stamp }
        if a.signer != b.signer { return a.signer < b.signer }
        return a.hash.lexicographicallyPrecedes(b.hash)
    }
}

extension MembershipOperation.Action {
    /// The same action with its cut-offs in device order.
    var canonical: Self {
        guard case .remove(let person, let cutoffs) = self else { return self }
        return .remove(person: person, cutoffs: cutoffs.sorted { $0.device < $1.device })
    }

    /// The participant an owner's invitation, permission change or removal names.
    var namedPerson: PersonID? {
        switch self {
        case .invite(let person, _), .setPermission(let person, _), .remove(let person, _): person
        default: nil
        }
    }

    /// The URL token an accept names; nil for an accept naming none (a person's) and for
    /// every other action.
    var acceptedToken: [UInt8]? {
        if case .accept(_, _, let token?) = self { return token }
        return nil
    }

    /// A short name for messages.
    var name: String {
        switch self {
        case .create: "create the zone"
        case .setTitle: "set the title"
        case .setPublicPermission: "set the public permission"
        case .invite: "invite a person"
        case .addToken: "add a URL token"
        case .revokeToken: "revoke a URL token"
        case .setPermission: "change a permission"
        case .remove: "remove a person"
        case .stop: "stop the zone"
        case .accept: "accept an invitation"
        case .leave: "leave"
        }
    }
}
