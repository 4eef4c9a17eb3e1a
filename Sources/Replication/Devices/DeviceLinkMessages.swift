import Store

extension MessageType {
    /// New device → a device of the person, on a connection whose purpose is `link`: "make me
    /// one of your person's devices; here is the link's token and my certificate".
    public static let linkRequest = MessageType(rawValue: 0x45)
    /// The answer: the person's whole device list (the new device on it), or why not.
    public static let linkResponse = MessageType(rawValue: 0x46)
}

/// "Make me one of your person's devices": the token of a link made with `device link`, the
/// name the new device wants on the list, and its certificate (whose SHA-256 must be the
/// connection's authenticated peer ID: what goes on the list is the key that connected).
///
///     token: string (≤ 128) | name: string (≤ 100) | certificate: bytes (≤ 4096)
public struct LinkRequest: Equatable, Sendable {
    /// Longest name, in UTF-8 bytes: what a device-list entry holds.
    public static let maximumNameBytes = 100
    public var token: String
    public var name: String
    public var certificate: [UInt8]

    public init(token: String, name: String, certificate: [UInt8]) {
        self.token = token
        self.name = name
        self.certificate = certificate
    }

    public var frame: Frame {
        var writer = BinaryWriter()
        writer.write(token)
        writer.write(name)
        writer.writeLengthPrefixed(certificate)
        return Frame(type: .linkRequest, payload: writer.bytes)
    }

    public init(frame: Frame) throws(WireError) {
        guard frame.type == .linkRequest else {
            throw .unexpectedMessage(type: frame.type.rawValue, expected: "link request")
        }
        var reader = BinaryReader(frame.fullPayload)
        token = try reader.readString("link token", maximumBytes: 128)
        name = try reader.readString("device name", maximumBytes: Self.maximumNameBytes)
        certificate = try reader.readLengthPrefixed(
            "certificate", maximum: MessageLimits().maxCertificateBytes)
        try reader.expectEnd(of: "link request")
    }
}

/// The answer to a link request: the person's device list (every entry, parents first, the
/// new device's `add` among them), or a refusal with a code and a message for the person.
///
///     outcome: u8 | 1: count: u16 (≤ 1024) | count × entry: bytes (≤ 8192)
///                 | 0: code: string (≤ 64) | message: string (≤ 4096)
public enum LinkResponse: Equatable, Sendable {
    case linked(entries: [[UInt8]])
    case refused(code: String, message: String)

    public var frame: Frame {
        var writer = BinaryWriter()
        switch self {
        case .linked(let entries):
            writer.write(UInt8(1))
            writer.write(UInt16(entries.count))
            for entry in entries { writer.writeLengthPrefixed(entry) }
        case .refused(let code, let message):
            writer.write(UInt8(0))
            writer.write(code)
            writer.write(message)
        }
        return Frame(type: .linkResponse, payload: writer.bytes)
    }

    public init(frame: Frame) throws(WireError) {
        guard frame.type == .linkResponse else {
            throw .unexpectedMessage(type: frame.type.rawValue, expected: "link response")
        }
        var reader = BinaryReader(frame.fullPayload)
        switch try reader.readUInt8("link outcome") {
        case 1:
            let count = Int(try reader.readUInt16("entry count"))
            self = .linked(
                entries: try reader.readLengthPrefixedList(
                    "device-list entry", count: count, countField: "entry count",
                    maximumCount: MessageLimits().maxDeviceListEntries,
                    maximumBytes: MessageLimits().maxDeviceListEntryBytes))
        case 0:
            self = .refused(
                code: try reader.readString("code", maximumBytes: 64),
                message: try reader.readString("message", maximumBytes: 4096))
        case let other:
            throw .invalidValue(field: "link outcome", reason: "\(other) is not 0 or 1")
        }
        try reader.expectEnd(of: "link response")
    }
}
