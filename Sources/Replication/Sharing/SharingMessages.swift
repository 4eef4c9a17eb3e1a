import Store

/// Message types of the sharing family: joining a share by URL, leaving, and being told a
/// share is gone.
extension MessageType {
    /// Participant → owner, on a fresh connection: "let me join ZONE, here is the URL's token".
    public static let joinRequest = MessageType(rawValue: 0x40)
    /// Owner → participant: the answer to a join request.
    public static let joinResponse = MessageType(rawValue: 0x41)
    /// Participant → owner: "I left ZONE" (the participant already purged its copy).
    public static let leaveNotice = MessageType(rawValue: 0x42)
    /// Owner → participant: "ZONE is no longer yours" (removed, or sharing stopped): purge it.
    public static let zoneRevoked = MessageType(rawValue: 0x43)
    /// Participant → owner: "am I still a member of ZONE?"; answered with a join response.
    public static let membershipCheck = MessageType(rawValue: 0x44)
}

extension MessageType {
    /// Types 0x40…0x4F belong to sharing; sessions hand them to the engine, whose
    /// `JoinHandler` answers them.
    public static let sharingRange: ClosedRange<UInt8> = 0x40...0x4F
}

/// "Let me join this share": the zone, the URL's token and, to an owner keeping the
/// membership log (`Capabilities.membership`), the joiner's signed `accept` operations.
///
///     zone: string (≤ 64) | token: string (≤ 128)
///       [| count: u8 (1 … 2) | count × (accept: bytes (≤ max operation bytes))]
///
/// The accepts are optional and trailing, sent only when both hellos announce
/// `acceptCapabilities`: a request without them is the previous release's, and an owner of
/// that release (which refuses trailing bytes) never gets them.
/// Two accepts are one without the token (for an invitation) and one with it (for a join by
/// token): the owner keeps the one its log takes.
public struct JoinRequest: Equatable, Sendable {
    /// Most accepts one request carries.
    public static let maximumAccepts = 2
    /// What both hellos must announce for a join request to carry accepts (and a leave
    /// notice its leave): the device list that proves the signer's person (`persons`), the
    /// log (`membership`), and this version of it (`signerLists`: an owner of the log's
    /// first version has bit 3 but refuses trailing bytes in a join request).
    public static let acceptCapabilities: Capabilities = [.persons, .membership, .signerLists]

    public let zone: String
    public let token: String
    /// Encoded `accept` operations signed by the joining device; empty for none.
    public let accepts: [[UInt8]]

    public init(zone: String, token: String, accepts: [[UInt8]] = []) {
        self.zone = zone
        self.token = token
        self.accepts = accepts
    }

    public var frame: Frame {
        var writer = BinaryWriter()
        writer.write(zone)
        writer.write(token)
        if !accepts.isEmpty {
            writer.write(UInt8(accepts.count))
            for accept in accepts { writer.writeLengthPrefixed(accept) }
        }
        return Frame(type: .joinRequest, payload: writer.bytes)
    }

    public init(frame: Frame) throws(WireError) {
        guard frame.type == .joinRequest else {
            throw .unexpectedMessage(type: frame.type.rawValue, expected: "join request")
        }
        var reader = BinaryReader(frame.fullPayload)
        zone = try reader.readString("zone", maximumBytes: 64)
        token = try reader.readString("token", maximumBytes: 128)
        var accepts: [[UInt8]] = []
        if !reader.isAtEnd {
            let count = Int(try reader.readUInt8("accept count"))
            guard (1...Self.maximumAccepts).contains(count) else {
                throw .invalidValue(
                    field: "accept count", reason: "\(count) is not 1 … \(Self.maximumAccepts)")
            }
            for _ in 0..<count {
                accepts.append(
                    try reader.readLengthPrefixed(
                        "accept", maximum: MessageLimits().maxMembershipOperationBytes))
            }
        }
        self.accepts = accepts
        try reader.expectEnd(of: "join request")
    }
}

/// The owner's answer to a join request: the permission granted, or why not, or (only to
/// a request carrying accepts) "sign your accept again, after this clock reading".
public enum JoinResponse: Equatable, Sendable {
    case accepted(title: String, permission: Permission)
    case refused(code: SharingRefusalCode, message: String)
    /// The join's accept is dated before the invitation or token it needs (the joiner's
    /// clock is behind the owner's): nothing changed; the joiner signs again with a stamp
    /// after `clock`, the owner's hybrid-clock reading.
    case acceptTooEarly(clock: UInt64)

    public var frame: Frame {
        var writer = BinaryWriter()
        switch self {
        case .accepted(let title, let permission):
            writer.write(UInt8(1))
            writer.write(title)
            writer.write(permission.rawValue)
        case .refused(let code, let message):
            writer.write(UInt8(0))
            writer.write(code.rawValue)
            writer.write(message)
        case .acceptTooEarly(let clock):
            writer.write(UInt8(2))
            writer.write(clock)
        }
        return Frame(type: .joinResponse, payload: writer.bytes)
    }

    public init(frame: Frame) throws(WireError) {
        guard frame.type == .joinResponse else {
            throw .unexpectedMessage(type: frame.type.rawValue, expected: "join response")
        }
        var reader = BinaryReader(frame.fullPayload)
        switch try reader.readUInt8("join outcome") {
        case 1:
            let title = try reader.readString("title", maximumBytes: 4096)
            let text = try reader.readString("permission", maximumBytes: 32)
            guard let permission = Permission(rawValue: text), permission != .none else {
                throw .invalidValue(field: "permission", reason: "'\(text)' is not read-only or read-write")
            }
            self = .accepted(title: title, permission: permission)
        case 0:
            self = .refused(
                code: SharingRefusalCode(rawValue: try reader.readString("code", maximumBytes: 64)),
                message: try reader.readString("message", maximumBytes: 4096))
        case 2:
            self = .acceptTooEarly(clock: try reader.readUInt64("owner clock"))
        case let other:
            throw .invalidValue(field: "join outcome", reason: "\(other) is not 0, 1 or 2")
        }
        try reader.expectEnd(of: "join response")
    }
}

/// A one-zone notice: a participant leaving or checking its membership, or the owner
/// revoking a participant's copy.
///
///     zone: string (≤ 64) | reason: string (≤ 4096) [| leave: bytes (≤ max operation bytes)]
///
/// The leave operation is optional and trailing, only in a leave notice, and sent only when
/// both hellos announce `JoinRequest.acceptCapabilities`.
public struct ZoneNotice: Equatable, Sendable {
    public let type: MessageType
    public let zone: String
    public let reason: String
    /// A leave notice's encoded `leave` operation, signed by the leaving device.
    public let operation: [UInt8]?

    public init(type: MessageType, zone: String, reason: String = "", operation: [UInt8]? = nil) {
        self.type = type
        self.zone = zone
        self.reason = reason
        self.operation = operation
    }

    public var frame: Frame {
        var writer = BinaryWriter()
        writer.write(zone)
        writer.write(reason)
        if let operation { writer.writeLengthPrefixed(operation) }
        return Frame(type: type, payload: writer.bytes)
    }

    public init(frame: Frame) throws(WireError) {
        guard [.leaveNotice, .zoneRevoked, .membershipCheck].contains(frame.type) else {
            throw .unexpectedMessage(type: frame.type.rawValue, expected: "a zone notice")
        }
        var reader = BinaryReader(frame.fullPayload)
        type = frame.type
        zone = try reader.readString("zone", maximumBytes: 64)
        reason = try reader.readString("reason", maximumBytes: 4096)
        if frame.type == .leaveNotice, !reader.isAtEnd {
            operation = try reader.readLengthPrefixed(
                "leave", maximum: MessageLimits().maxMembershipOperationBytes)
        } else {
            operation = nil
        }
        try reader.expectEnd(of: "zone notice")
    }
}
