import Store

/// Why `accept` failed, for the person who typed it.
public enum AcceptError: Error, Equatable, Sendable, CustomStringConvertible {
    case ownShare
    case alreadyMember(zone: String)
    case unreachable(address: String, reason: String)
    case wrongOwner(address: String, presented: PeerID, expected: PeerID)
    /// The owner answered no, with its code and its message.
    case refused(code: SharingRefusalCode, message: String)
    /// The owner could not be reached and a member the URL lists answered no, from the
    /// share's signed membership log.
    case memberRefused(member: PeerID, code: SharingRefusalCode, message: String)
    /// The owner serves as many joining connections as it allows: try again later.
    case busy(String)
    case protocolFailure(String)
    case local(String)

    public var description: String {
        switch self {
        case .ownShare: return "this is your own share: you cannot accept it"
        case .alreadyMember(let zone):
            return
                "you already take part in share \(zone); the owner's addresses this URL gives are tried now"
        case .unreachable(let address, let reason):
            return "cannot reach the share's owner at \(address): \(reason)"
        case .wrongOwner(let address, let presented, let expected):
            return
                "the daemon at \(address) is not the share's owner: it is \(presented), the URL names \(expected)"
        case .refused(.joinRequested, let message): return "the owner has your request to join: \(message)"
        case .refused(_, let message): return "the owner refused: \(message)"
        case .memberRefused(let member, _, let message):
            return "the owner could not be reached, and member \(member) refused: \(message)"
        case .busy(let message): return "the owner is busy: \(message)"
        case .protocolFailure(let detail): return "accepting failed: \(detail)"
        case .local(let detail): return "accepting failed here: \(detail)"
        }
    }

    /// A short machine-readable code for clients.
    public var code: String {
        switch self {
        case .ownShare: return "own_share"
        case .alreadyMember: return "already_member"
        case .unreachable: return "owner_unreachable"
        case .wrongOwner: return "wrong_owner"
        case .refused(let code, _), .memberRefused(_, let code, _): return code.rawValue
        case .busy: return "owner_busy"
        case .protocolFailure: return "protocol_error"
        case .local: return "local_error"
        }
    }
}
