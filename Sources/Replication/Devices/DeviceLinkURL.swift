import FoundationEssentials
import Store
import Support

/// A device link, `peershare://HOST:PORT/link/DEVICE_ID/TOKEN`: the one-time capability that
/// makes a fresh daemon a device of the person of DEVICE_ID's daemon (SPEC §12).
///
/// Why this shape: it survives a shell unquoted (no `&`, `?`, `*`, `#`, `;`), the device ID
/// pins the TLS connection (the token goes to nobody else), and the token (128 bits, kept by
/// the linking device only as its hash) expires after 10 minutes or its first use. Treat it
/// like a password.
public struct DeviceLinkURL: Equatable, Sendable, CustomStringConvertible {
    public let address: PeerAddress
    public let device: PeerID
    public let token: String

    public init(address: PeerAddress, device: PeerID, token: String) {
        self.address = address
        self.device = device
        self.token = token
    }

    /// Parses a link, saying what is wrong with a malformed one.
    public init(parsing text: String) throws(DeviceLinkError) {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.lowercased().hasPrefix(ShareURL.scheme) else {
            throw .malformed("it does not start with \(ShareURL.scheme)")
        }
        let parts = trimmed.dropFirst(ShareURL.scheme.count).split(
            separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[1] == "link" else {
            throw .malformed("a device link is \(ShareURL.scheme)HOST:PORT/link/DEVICE_ID/TOKEN")
        }
        do {
            address = try PeerAddress.parse(String(parts[0]))
        } catch {
            throw .malformed("its address: \(error)")
        }
        do {
            device = try PeerID(parsing: String(parts[2]))
        } catch {
            throw .malformed("its device ID: \(error)")
        }
        let token = parts[3].lowercased()
        guard token.count == 32, token.allSatisfy(\.isHexDigit) else {
            throw .malformed("its token must be 32 hexadecimal characters; copy the whole link")
        }
        self.token = token
    }

    public var description: String { "\(ShareURL.scheme)\(address)/link/\(device)/\(token)" }
}

/// Why linking a device failed, for the person at the new device.
public enum DeviceLinkError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String)
    /// This daemon holds photos or shares of its own.
    /// This daemon holds photos (without `--merge`) or shares of its own.
    case notFresh(photos: Int, shares: Int, merging: Bool)
    case unreachable(address: String, reason: String)
    /// Another daemon answers at the link's address.
    case wrongDevice(address: String, presented: PeerID)
    /// The linking device refused: its code and message.
    case refused(code: String, message: String)
    case protocolFailure(String)
    case local(String)

    public var description: String {
        switch self {
        case .malformed(let reason): return "not a device link: \(reason)"
        case .notFresh(let photos, let shares, let merging):
            let held = "this daemon already holds a library of its own (\(photos) photos, \(shares) shares): "
            if shares > 0 {
                return held
                    + "a daemon with shares cannot join a person's devices\(merging ? ", even with --merge" : ""); "
                    + "stop or leave its shares first"
            }
            return held + "join with --merge to merge its photos into the person's library"
        case .unreachable(let address, let reason): return "cannot reach the device at \(address): \(reason)"
        case .wrongDevice(let address, let presented):
            return "another daemon (\(presented)) answers at \(address): the link names another device"
        case .refused(_, let message): return message
        case .protocolFailure(let reason):
            return "the linking device answered something unexpected: \(reason)"
        case .local(let reason): return "cannot join: \(reason)"
        }
    }

    /// The error code clients see.
    public var code: String {
        switch self {
        case .malformed: return "invalid_link"
        case .notFresh: return "not_fresh"
        case .unreachable: return "unreachable"
        case .wrongDevice: return "wrong_device"
        case .refused(let code, _): return code
        case .protocolFailure: return "protocol_error"
        case .local: return "internal"
        }
    }
}
