import Store

/// The byte layout of a membership operation (docs/PROTOCOL.md, "Membership operations").
extension MembershipOperation {
    static func body(
        zone: String, action: Action, stamp: UInt64, signer: PeerID, signerPerson: PersonID
    ) -> [UInt8] {
        var writer = BinaryWriter()
        writer.write(formatVersion)
        writer.write(zone)
        writer.write(stamp)
        writer.write(signer)
        writer.writeFixed(signerPerson.bytes)
        writer.write(action.code)
        switch action {
        case .create(let owner, let title, let publicPermission):
            writer.writeFixed(owner.bytes)
            writer.write(title)
            writer.write(publicPermission.code)
        case .setTitle(let title):
            writer.write(title)
        case .setPublicPermission(let permission):
            writer.write(permission.code)
        case .invite(let person, let permission), .setPermission(let person, let permission):
            writer.writeFixed(person.bytes)
            writer.write(permission.code)
        case .addToken(let hash, let permission):
            writer.writeFixed(hash)
            writer.write(permission.code)
        case .revokeToken(let hash):
            writer.writeFixed(hash)
        case .remove(let person, let cutoffs):
            writer.writeFixed(person.bytes)
            writer.write(UInt16(cutoffs.count))
            for cutoff in cutoffs {
                writer.write(cutoff.device)
                writer.write(cutoff.seq)
                writer.writeFixed(cutoff.hash)
            }
        case .stop:
            break
        case .accept(let person, let device, let token):
            writer.writeFixed(person.bytes)
            writer.write(device)
            writer.write(token != nil)
            if let token { writer.writeLengthPrefixed(token) }
        case .leave(let person):
            writer.writeFixed(person.bytes)
        }
        return writer.bytes
    }

    /// Decodes an operation; checks its shape (version, sizes, values, canonical order),
    /// not its signature or its authority (`MembershipLog.receive` does).
    public init(decoding bytes: [UInt8]) throws(MembershipError) {
        if let version = bytes.first, version > Self.formatVersion {
            throw .newerFormat(version: version, supported: Self.formatVersion)
        }
        do {
            self = try Self.decode(bytes)
        } catch {
            throw .malformed(error)
        }
    }

    private static func decode(_ bytes: [UInt8]) throws(WireError) -> MembershipOperation {
        var reader = BinaryReader(bytes)
        let version = try reader.readUInt8("membership operation version")
        guard version == formatVersion else {
            throw .invalidValue(field: "membership operation version", reason: "\(version) is not 1")
        }
        let zone = try reader.readString("zone", maximumBytes: maximumZoneBytes)
        guard !zone.isEmpty else { throw .invalidValue(field: "zone", reason: "empty") }
        let stamp = try reader.readUInt64("membership stamp")
        let signer = try reader.readPeerID("membership signer")
        let signerPerson = try reader.readPersonID("membership signer person")
        let action = try readAction(&reader)
        let signature = try reader.readFixed(Signature.size, "membership signature")
        try reader.expectEnd(of: "membership operation")
        return MembershipOperation(
            zone: zone, action: action, stamp: stamp, signer: signer, signerPerson: signerPerson,
            signature: signature)
    }

    private static func readAction(_ reader: inout BinaryReader) throws(WireError) -> Action {
        let code = try reader.readUInt8("membership action")
        switch code {
        case 1:
            let owner = try reader.readPersonID("zone owner")
            let title = try reader.readString("title", maximumBytes: maximumTitleBytes)
            return .create(
                owner: owner, title: title, publicPermission: try reader.readPermission("public permission"))
        case 2:
            return .setTitle(try reader.readString("title", maximumBytes: maximumTitleBytes))
        case 3:
            return .setPublicPermission(try reader.readPermission("public permission"))
        case 4, 7:
            let person = try reader.readPersonID("participant")
            let permission = try reader.readPermission("participant permission")
            guard permission != .none else {
                throw .invalidValue(
                    field: "participant permission", reason: "none: remove the person instead")
            }
            return code == 4
                ? .invite(person: person, permission: permission)
                : .setPermission(person: person, permission: permission)
        case 5:
            let hash = try reader.readFixed(32, "token hash")
            return .addToken(hash: hash, permission: try reader.readPermission("token permission"))
        case 6:
            return .revokeToken(hash: try reader.readFixed(32, "token hash"))
        case 8:
            return .remove(
                person: try reader.readPersonID("removed person"), cutoffs: try readCutoffs(&reader))
        case 9:
            return .stop
        case 10:
            let person = try reader.readPersonID("accepting person")
            let device = try reader.readPeerID("accepting device")
            var token: [UInt8]?
            if try reader.readBool("token present") {
                let bytes = try reader.readLengthPrefixed("token", maximum: maximumTokenBytes)
                guard !bytes.isEmpty else { throw .invalidValue(field: "token", reason: "empty") }
                token = bytes
            }
            return .accept(person: person, device: device, token: token)
        case 11:
            return .leave(person: try reader.readPersonID("leaving person"))
        default:
            throw .invalidValue(field: "membership action", reason: "unknown action \(code)")
        }
    }

    private static func readCutoffs(_ reader: inout BinaryReader) throws(WireError) -> [Cutoff] {
        let count = Int(try reader.readUInt16("cut-off count"))
        guard count <= maximumCutoffs else {
            throw .fieldTooLarge(field: "cut-offs", length: count, maximum: maximumCutoffs)
        }
        var cutoffs: [Cutoff] = []
        for _ in 0..<count {
            let device = try reader.readPeerID("cut-off device")
            let seq = try reader.readUInt64("cut-off sequence number")
            cutoffs.append(Cutoff(device: device, seq: seq, hash: try reader.readFixed(32, "cut-off hash")))
        }
        guard zip(cutoffs, cutoffs.dropFirst()).allSatisfy({ $0.device < $1.device }) else {
            throw .invalidValue(field: "cut-offs", reason: "not in device order or repeated")
        }
        return cutoffs
    }
}

extension MembershipOperation.Action {
    var code: UInt8 {
        switch self {
        case .create: 1
        case .setTitle: 2
        case .setPublicPermission: 3
        case .invite: 4
        case .addToken: 5
        case .revokeToken: 6
        case .setPermission: 7
        case .remove: 8
        case .stop: 9
        case .accept: 10
        case .leave: 11
        }
    }
}

extension Permission {
    /// One byte on the wire: 0 none, 1 read-only, 2 read-write.
    fileprivate var code: UInt8 {
        switch self {
        case .none: 0
        case .readOnly: 1
        case .readWrite: 2
        }
    }
}

extension BinaryReader {
    fileprivate mutating func readPersonID(_ field: String) throws(WireError) -> PersonID {
        PersonID(digest: try readFixed(32, field))!
    }

    fileprivate mutating func readPermission(_ field: String) throws(WireError) -> Permission {
        switch try readUInt8(field) {
        case 0: .none
        case 1: .readOnly
        case 2: .readWrite
        case let other: throw .invalidValue(field: field, reason: "\(other) is not 0, 1 or 2")
        }
    }
}
