/// Why an owner refused a sharing message: the code of a refused `JoinResponse`.
///
/// On the wire it is a string (docs/PROTOCOL.md §10), so that a newer owner may add codes;
/// a code this build does not know is kept as it is (`other`), shown to the person and passed
/// on to clients. Code compares these cases, never the strings.
public enum SharingRefusalCode: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The owner has no such share — or the asker never took part in it.
    case unknownShare
    /// The owner removed the asker from the share.
    case removed
    /// The owner stopped the share.
    case stopped
    /// The answer to a leave notice: the owner recorded that the asker left.
    case left
    /// The share's rules do not let the asker in (revoked token, private share, removed).
    case permissionDenied
    /// The share is private and the asker not invited: its request to join is kept for the
    /// owner to approve (then the asker accepts again) or deny.
    case joinRequested
    /// The request itself is not acceptable (the owner's own share).
    case invalid
    /// A sharing message the owner does not take (a join response, an unknown type).
    case unexpected
    /// The sharing message was malformed.
    case protocolError
    /// The owner failed locally while checking.
    case internalError
    /// The join's signed accept does not check (forged, another device or person, another
    /// zone, another token): nothing changed.
    case invalidAccept
    /// The join's accept stayed dated before the invitation it needs, even signed again
    /// after the owner's clock reading (said by the joiner, never sent).
    case acceptTooEarly
    /// A code this build does not know, as it was received.
    case other(String)

    private static let known: [(SharingRefusalCode, String)] = [
        (.unknownShare, "unknown_share"), (.removed, "removed"), (.stopped, "stopped"), (.left, "left"),
        (.permissionDenied, "permission_denied"), (.joinRequested, "join_requested"), (.invalid, "invalid"),
        (.unexpected, "unexpected"),
        (.protocolError, "protocol_error"), (.internalError, "internal"), (.invalidAccept, "invalid_accept"),
        (.acceptTooEarly, "accept_too_early"),
    ]

    /// The code for its wire form; an unknown string is kept as `other`.
    public init(rawValue: String) {
        self = Self.known.first { $0.1 == rawValue }?.0 ?? .other(rawValue)
    }

    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The wire form.
    public var rawValue: String {
        if case .other(let text) = self { return text }
        return Self.known.first { $0.0 == self }?.1 ?? ""
    }

    public var description: String { rawValue }

    /// True for the answers to a membership check that say this peer's copy is over: the
    /// share was stopped, this peer was removed, or the owner does not know it (any more).
    public var endsMembership: Bool {
        switch self {
        case .removed, .stopped, .unknownShare: return true
        default: return false
        }
    }
}
