/// Why bytes from a peer were refused. Any of these ends the connection (never the daemon)
/// and is logged with the peer's ID, so the message says what was wrong with the input.
public enum WireError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A frame announced a body larger than the receiver's limit.
    case frameTooLarge(length: Int, maximum: Int)
    /// A frame announced an empty body: even the message type byte is missing.
    case emptyFrame
    /// A message ended before one of its fields.
    case truncated(field: String, needed: Int, remaining: Int)
    /// A length-prefixed field announced more than its limit.
    case fieldTooLarge(field: String, length: Int, maximum: Int)
    /// A field held a value that is not allowed.
    case invalidValue(field: String, reason: String)
    /// A message had bytes left over after its last field.
    case trailingBytes(message: String, count: Int)
    /// The first message was not a PeerShare hello.
    case badMagic
    /// The peer speaks no protocol version this peer does.
    case unsupportedVersion(remote: UInt16, supported: ClosedRange<UInt16>)
    /// The hello's peer ID is not the one TLS authenticated.
    case helloPeerMismatch
    /// A message of a type that is not allowed at this point.
    case unexpectedMessage(type: UInt8, expected: String)
    /// The connection ended in the middle of a frame.
    case endedMidFrame(bufferedBytes: Int)

    public var description: String {
        switch self {
        case .frameTooLarge(let length, let maximum):
            return "frame of \(length) bytes exceeds the limit of \(maximum) bytes"
        case .emptyFrame:
            return "frame with an empty body (no message type)"
        case .truncated(let field, let needed, let remaining):
            return "message ended early: \(field) needs \(needed) bytes, \(remaining) left"
        case .fieldTooLarge(let field, let length, let maximum):
            return "\(field) of \(length) bytes exceeds the limit of \(maximum) bytes"
        case .invalidValue(let field, let reason):
            return "invalid \(field): \(reason)"
        case .trailingBytes(let message, let count):
            return "\(count) unexpected bytes after the end of a \(message) message"
        case .badMagic:
            return "the other side does not speak the PeerShare protocol (bad magic in hello)"
        case .unsupportedVersion(let remote, let supported):
            return "the other side speaks protocol version \(remote), this peer supports "
                + "\(supported.lowerBound)–\(supported.upperBound); update the older PeerShare"
        case .helloPeerMismatch:
            return "the peer ID in the hello differs from the one TLS authenticated"
        case .unexpectedMessage(let type, let expected):
            return "unexpected message type \(type), expected \(expected)"
        case .endedMidFrame(let buffered):
            return "connection ended in the middle of a frame (\(buffered) bytes buffered)"
        }
    }
}
