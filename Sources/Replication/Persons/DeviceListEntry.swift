import Store
import Support

/// One signed entry of a person's device list: the founding, the addition, renaming or
/// removal of a device, or the naming of the person, signed by a device already on the list.
///
/// Why: a person's devices must agree on which devices are theirs without a server, and
/// any peer must be able to check that agreement. Each entry names the entries it was
/// written after (`parents`), so the list is a graph that merges by union, and carries its
/// signer's signature over everything else, so a relay cannot alter it.
public struct DeviceListEntry: Hashable, Sendable {
    /// What the entry does.
    public enum Action: Hashable, Sendable {
        /// Founds the person with its first device (`parents` empty, signed by that device).
        case found(certificate: [UInt8], name: String)
        /// Adds a device, identified by its certificate (whose digest is its ID).
        case add(certificate: [UInt8], name: String)
        case rename(device: PeerID, name: String)
        case remove(device: PeerID)
        /// Names the person: its display name (new with issue 15; a release before it refuses
        /// a list holding one). Display only: never used to decide who may do what.
        case personName(name: String)
    }

    /// The format of the signed bytes; a newer one is refused, not guessed at.
    public static let formatVersion: UInt8 = 1
    public static let maximumParents = 16
    public static let maximumCertificateBytes = 4096
    public static let maximumNameBytes = 100

    public let action: Action
    /// Hashes of the entries this one was written after, sorted, without repeats.
    public let parents: [[UInt8]]
    /// The device that signed: for `found`, the founded device itself.
    public let signer: PeerID
    /// Milliseconds since 1970 on the signer's clock: shown to people, never trusted for order.
    public let createdAt: UInt64
    public let signature: [UInt8]

    /// SHA-256 of the encoded entry (signature included): how other entries name it.
    public let hash: [UInt8]

    init(action: Action, parents: [[UInt8]], signer: PeerID, createdAt: UInt64, signature: [UInt8]) {
        self.action = action
        self.parents = parents
        self.signer = signer
        self.createdAt = createdAt
        self.signature = signature
        self.hash = SHA256Hasher.digest(Self.body(action, parents, signer, createdAt) + signature)
    }

    /// Signs a new entry with `identity`. `person` is nil only for `found`.
    public static func signed(
        _ action: Action, parents: [[UInt8]], person: PersonID?, by identity: PeerIdentity,
        at createdAt: UInt64
    ) -> DeviceListEntry {
        let parents = Array(Set(parents)).sorted { $0.lexicographicallyPrecedes($1) }
        let body = body(action, parents, identity.peerID, createdAt)
        let signature = Signature.sign(signedMessage(body, person: person), with: identity)
        return DeviceListEntry(
            action: action, parents: parents, signer: identity.peerID, createdAt: createdAt,
            signature: signature)
    }

    /// What the signature covers: a domain tag, the person (32 zero bytes while founding),
    /// and the body. The person is covered so that an entry cannot be replayed into
    /// another person's list.
    static func signedMessage(_ body: [UInt8], person: PersonID?) -> [UInt8] {
        Array("peershare device list v1\0".utf8) + (person?.bytes ?? [UInt8](repeating: 0, count: 32)) + body
    }

    var body: [UInt8] { Self.body(action, parents, signer, createdAt) }

    /// The encoded entry: body, then signature.
    public var encoded: [UInt8] { body + signature }

    private static func body(_ action: Action, _ parents: [[UInt8]], _ signer: PeerID, _ createdAt: UInt64)
        -> [UInt8]
    {
        var writer = BinaryWriter()
        writer.write(formatVersion)
        writer.write(action.code)
        writer.write(createdAt)
        writer.write(UInt16(parents.count))
        for parent in parents { writer.writeFixed(parent) }
        switch action {
        case .found(let certificate, let name), .add(let certificate, let name):
            writer.writeLengthPrefixed(certificate)
            writer.write(name)
        case .rename(let device, let name):
            writer.write(device)
            writer.write(name)
        case .remove(let device):
            writer.write(device)
        case .personName(let name):
            writer.write(name)
        }
        writer.write(signer)
        return writer.bytes
    }

    /// Decodes an entry; checks its shape (sizes, sorted parents), not its signature.
    public init(decoding bytes: [UInt8]) throws(WireError) {
        var reader = BinaryReader(bytes)
        let version = try reader.readUInt8("device list entry version")
        guard version == Self.formatVersion else {
            throw .invalidValue(field: "device list entry version", reason: "\(version) is not 1")
        }
        let code = try reader.readUInt8("device list action")
        let createdAt = try reader.readUInt64("device list entry time")
        let count = Int(try reader.readUInt16("device list parent count"))
        guard count <= Self.maximumParents else {
            throw .fieldTooLarge(field: "device list parents", length: count, maximum: Self.maximumParents)
        }
        var parents: [[UInt8]] = []
        for _ in 0..<count { parents.append(try reader.readFixed(32, "device list parent")) }
        guard zip(parents, parents.dropFirst()).allSatisfy({ $0.lexicographicallyPrecedes($1) }) else {
            throw .invalidValue(field: "device list parents", reason: "not sorted or repeated")
        }
        let action: Action
        switch code {
        case 1, 2:
            let certificate = try reader.readLengthPrefixed(
                "device certificate", maximum: Self.maximumCertificateBytes)
            let name = try reader.readString("device name", maximumBytes: Self.maximumNameBytes)
            action =
                code == 1
                ? .found(certificate: certificate, name: name) : .add(certificate: certificate, name: name)
        case 3:
            let device = try reader.readPeerID("renamed device")
            action = .rename(
                device: device,
                name: try reader.readString("device name", maximumBytes: Self.maximumNameBytes))
        case 4:
            action = .remove(device: try reader.readPeerID("removed device"))
        case 5:
            let name = try reader.readString("person name", maximumBytes: Self.maximumNameBytes)
            guard !name.isEmpty else { throw .invalidValue(field: "person name", reason: "empty") }
            action = .personName(name: name)
        default:
            throw .invalidValue(field: "device list action", reason: "unknown action \(code)")
        }
        let signer = try reader.readPeerID("device list signer")
        let signature = try reader.readFixed(Signature.size, "device list signature")
        try reader.expectEnd(of: "device list entry")
        self.init(
            action: action, parents: parents, signer: signer, createdAt: createdAt, signature: signature)
    }
}

extension DeviceListEntry.Action {
    var code: UInt8 {
        switch self {
        case .found: 1
        case .add: 2
        case .rename: 3
        case .remove: 4
        case .personName: 5
        }
    }

    var isFounding: Bool {
        if case .found = self { true } else { false }
    }

    /// The device this action removes, if any.
    var removedDevice: PeerID? {
        if case .remove(let device) = self { device } else { nil }
    }

    /// The device this action adds (its ID is its certificate's digest), if any.
    var addedDevice: (id: PeerID, certificate: [UInt8], name: String)? {
        switch self {
        case .found(let certificate, let name), .add(let certificate, let name):
            (PeerID(digest: SHA256Hasher.digest(certificate))!, certificate, name)
        default: nil
        }
    }
}
