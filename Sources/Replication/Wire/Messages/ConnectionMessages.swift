extension MessageType {
    /// Keepalive probe.
    public static let ping = MessageType(rawValue: 0x0A)
    /// Keepalive answer.
    public static let pong = MessageType(rawValue: 0x0B)
    /// The sender is closing the connection, and says why.
    public static let error = MessageType(rawValue: 0x0C)
}

/// Keepalive probe, sent when the connection has been quiet; answered by a `Pong` with the
/// same nonce. Any frame received proves the peer alive.
///
///     nonce: u64
public struct Ping: NonceMessage {
    public static let type = MessageType.ping
    public static let name = "ping"

    public var nonce: UInt64

    public init(nonce: UInt64) {
        self.nonce = nonce
    }
}

/// Keepalive answer.
///
///     nonce: u64
public struct Pong: NonceMessage {
    public static let type = MessageType.pong
    public static let name = "pong"

    public var nonce: UInt64

    public init(nonce: UInt64) {
        self.nonce = nonce
    }
}

/// A message that is a nonce (`Ping`, `Pong`): one codec for both, each keeping its type.
public protocol NonceMessage: WireMessage {
    var nonce: UInt64 { get }
    init(nonce: UInt64)
}

extension NonceMessage {
    public func encode(into writer: inout BinaryWriter) {
        writer.write(nonce)
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        self.init(nonce: try reader.readUInt64("nonce"))
    }
}

/// Why a peer closes a connection. Unknown codes are kept as they are.
public struct CloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The other side sent something malformed or out of place.
    public static let protocolError = CloseCode(rawValue: 1)
    /// The other side is not (or no longer) a member of any zone shared with the sender.
    public static let notMember = CloseCode(rawValue: 2)
    /// The sender has paused replication (with everyone or with this peer).
    public static let paused = CloseCode(rawValue: 3)
    /// The sender is shutting down.
    public static let shuttingDown = CloseCode(rawValue: 4)
    /// Another connection between the same two peers is kept instead of this one.
    public static let duplicate = CloseCode(rawValue: 5)
    /// The other side was silent for too long.
    public static let timeout = CloseCode(rawValue: 6)
    /// The sender failed locally (storage error…).
    public static let internalError = CloseCode(rawValue: 7)
    /// The sender serves as many such connections as it allows: try again later.
    public static let busy = CloseCode(rawValue: 8)

    public var description: String {
        switch self {
        case .protocolError: return "protocol error"
        case .notMember: return "not a member"
        case .paused: return "paused"
        case .shuttingDown: return "shutting down"
        case .duplicate: return "duplicate connection"
        case .timeout: return "timeout"
        case .internalError: return "internal error"
        case .busy: return "busy"
        default: return "code \(rawValue)"
        }
    }
}

/// The last frame before the sender closes: a code and a human-readable reason, logged by
/// the receiver.
///
///     code: u16 | message: string
public struct ErrorMessage: WireMessage {
    public static let type = MessageType.error
    public static let name = "error"

    public var code: CloseCode
    public var message: String

    public init(code: CloseCode, message: String) {
        self.code = code
        self.message = message
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(code.rawValue)
        writer.write(message)
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        code = CloseCode(rawValue: try reader.readUInt16("code"))
        message = try reader.readString("message", maximumBytes: limits.maxReasonBytes)
    }
}
