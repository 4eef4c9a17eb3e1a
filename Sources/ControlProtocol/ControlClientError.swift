import Glibc
import Support

/// Why a control-socket call did not produce a result.
///
/// `.unreachable` is separate so the CLI can tell people how to start the daemon, and
/// `.daemon` carries the daemon's own typed error untouched.
public enum ControlClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing listens at the path (no file, or a stale socket).
    case unreachable(String)
    /// The socket exists but connecting failed for another reason (permissions, …).
    case cannotConnect(String, reason: String)
    /// The daemon answered with an error.
    case daemon(ControlError)
    /// The daemon closed the connection before answering.
    case connectionClosed(String)
    /// The daemon sent something the protocol does not allow.
    case protocolViolation(String, String)
    /// The daemon took no connection, or sent nothing, within the client's timeout.
    case timedOut(String, after: Duration)

    init(connecting path: String, _ error: SystemCallError) {
        switch error.code {
        case ENOENT, ECONNREFUSED, ENOTDIR: self = .unreachable(path)
        default: self = .cannotConnect(path, reason: error.reason)
        }
    }

    /// A stable code for `--json` output.
    public var code: String {
        switch self {
        case .unreachable: return "daemon_unreachable"
        case .cannotConnect: return "cannot_connect"
        case .daemon(let error): return error.code.rawValue
        case .connectionClosed: return "connection_closed"
        case .protocolViolation: return "protocol_violation"
        case .timedOut: return "daemon_timeout"
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let path):
            return "cannot reach peershared at \(path): is it running? start it with "
                + "'systemctl --user start peershared' (or run 'peershared'), "
                + "or pass --socket PATH if it listens elsewhere"
        case .cannotConnect(let path, let reason):
            return "cannot connect to peershared at \(path): \(reason)"
        case .daemon(let error):
            return error.message
        case .connectionClosed(let path):
            return "peershared at \(path) closed the connection before answering: see its log "
                + "('journalctl --user -u peershared')"
        case .protocolViolation(let path, let detail):
            return "peershared at \(path) broke the control protocol (\(detail)): are the CLI and "
                + "daemon the same version?"
        case .timedOut(let path, let timeout):
            return "the daemon at \(path) did not answer within \(timeout.components.seconds) s: it may be "
                + "stuck or overloaded (see its log, 'journalctl --user -u peershared'); "
                + "peershare --timeout SECONDS waits longer"
        }
    }
}
