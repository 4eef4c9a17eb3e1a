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

/// "Let me join this share": the zone and the URL's token.
public struct JoinRequest: Equatable, Sendable {
    public let zone: String
    public let token: String

    public init(zone: String, token: String) {
        self.zone = zone
        self.token = token
    }

    public var frame: Frame {
        var writer = BinaryWriter()
        writer.write(zone)
        writer.write(token)
        return Frame(type: .joinRequest, payload: writer.bytes)
    }

    public init(frame: Frame) throws(WireError) {
        guard frame.type == .joinRequest else {
            throw .unexpectedMessage(type: frame.type.rawValue, expected: "join request")
        }
        var reader = BinaryReader(frame.fullPayload)
        zone = try reader.readString("zone", maximumBytes: 64)
        token = try reader.readString("token", maximumBytes: 128)
        try reader.expectEnd(of: "join request")
    }
}

/// The owner's answer to a join request: the permission granted, or why not.
public enum JoinResponse: Equatable, Sendable {
    case accepted(title: String, permission: Permission)
    case refused(code: SharingRefusalCode, message: String)

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
        case let other:
            throw .invalidValue(field: "join outcome", reason: "\(other) is not 0 or 1")
        }
        try reader.expectEnd(of: "join response")
    }
}

/// A one-zone notice: a participant leaving or checking its membership, or the owner
/// revoking a participant's copy.
public struct ZoneNotice: Equatable, Sendable {
    public let type: MessageType
    public let zone: String
    public let reason: String

    public init(type: MessageType, zone: String, reason: String = "") {
        self.type = type
        self.zone = zone
        self.reason = reason
    }

    public var frame: Frame {
        var writer = BinaryWriter()
        writer.write(zone)
        writer.write(reason)
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
        try reader.expectEnd(of: "zone notice")
    }
}
