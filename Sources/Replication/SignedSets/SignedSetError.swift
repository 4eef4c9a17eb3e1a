import Store

/// Why a signed change set (or its header) was refused. Each message names the author and,
/// where known, the set's sequence number, so a log says whose set it was.
public enum SignedSetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes ended before `field`.
    case truncated(field: String, needed: Int, remaining: Int)
    /// Bytes were left after the end of the set.
    case trailingBytes(count: Int)
    /// A field held a value that is not allowed (too long, not UTF-8, an impossible link).
    case invalidField(field: String, reason: String)
    /// The set was written in a format this peer does not know yet.
    case newerFormat(version: UInt8, supported: UInt8)
    /// The body announced is larger than the receiver's limit.
    case bodyTooLarge(length: Int, maximum: Int)
    /// The body is not the one the signed header names.
    case bodyHashMismatch(author: PeerID, seq: UInt64)
    /// The set belongs to another zone than the one it arrived for.
    case wrongZone(expected: String, found: String)
    /// No certificate is known for the author device.
    case unknownAuthor(PeerID)
    /// The author's certificate cannot give its key.
    case unusableCertificate(PeerID, reason: String)
    /// The signature is not the author's over this header.
    case badSignature(author: PeerID, seq: UInt64)

    init(_ error: WireError) {
        switch error {
        case .truncated(let field, let needed, let remaining):
            self = .truncated(field: field, needed: needed, remaining: remaining)
        case .trailingBytes(_, let count):
            self = .trailingBytes(count: count)
        case .invalidValue(let field, let reason):
            self = .invalidField(field: field, reason: reason)
        case .fieldTooLarge(let field, let length, let maximum):
            self = .invalidField(field: field, reason: "\(length) bytes, the limit is \(maximum)")
        default:
            self = .invalidField(field: "signed change set", reason: error.description)
        }
    }

    public var description: String {
        switch self {
        case .truncated(let field, let needed, let remaining):
            "signed change set ended early: \(field) needs \(needed) bytes, \(remaining) left"
        case .trailingBytes(let count): "\(count) unexpected bytes after the end of a signed change set"
        case .invalidField(let field, let reason): "invalid \(field) in a signed change set: \(reason)"
        case .newerFormat(let version, let supported):
            "signed change set of format \(version), this peer reads \(supported): update PeerShare"
        case .bodyTooLarge(let length, let maximum):
            "signed change set body of \(length) bytes exceeds the limit of \(maximum) bytes"
        case .bodyHashMismatch(let author, let seq):
            "the body of set \(seq) of device \(author) is not the one its signed header names"
        case .wrongZone(let expected, let found):
            "a signed change set of zone \(found) arrived for zone \(expected)"
        case .unknownAuthor(let device): "no certificate is known for device \(device), the set's author"
        case .unusableCertificate(let device, let reason):
            "the certificate given for device \(device) cannot check its signatures: \(reason)"
        case .badSignature(let author, let seq):
            "the signature of set \(seq) is not device \(author)'s: the set was forged or altered"
        }
    }
}
