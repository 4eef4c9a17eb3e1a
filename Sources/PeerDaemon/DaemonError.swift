import ControlProtocol
import Glibc
import Support

/// Why `peershared` could not start: what failed, on what, and what to do about it.
enum DaemonError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The exit status: failures that starting again unchanged would repeat have their own
    /// (the unit's RestartPreventExitStatus= lists them), so systemd does not restart in a
    /// loop; anything else is a plain failure, which a restart may cure.
    var exitStatus: Int32 {
        switch self {
        case .libraryElsewhere: return PeerDaemonMain.ExitStatus.config
        case .listenAddressInUse: return PeerDaemonMain.ExitStatus.addressInUse
        default: return PeerDaemonMain.ExitStatus.failure
        }
    }

    case stateDirectory(SystemCallError)
    case lockHeld(stateDirectory: String, pid: Int32?)
    case controlSocketNotASocket(String)
    case controlSocketInUse(String)
    case controlSocketPathTooLong(String)
    case controlSocket(SystemCallError)
    case listen(address: String, reason: String)
    /// Another program (or another peershared) holds the listen address.
    case listenAddressInUse(address: String)
    case identity(directory: String, reason: String)
    case library(directory: String, reason: String)
    case replication(reason: String)
    /// The state directory is new, but a library exists in another known location.
    case libraryElsewhere(found: String, stateDirectory: String)

    var description: String {
        switch self {
        case .stateDirectory(let error):
            return "cannot use the state directory: \(error): check its owner and mode, "
                + "or choose another with --state-dir"
        case .lockHeld(let directory, let pid):
            let holder = pid.map { "another peershared (pid \($0))" } ?? "another peershared"
            return "\(holder) is already using state directory \(directory): stop it first, "
                + "or give this daemon its own --state-dir"
        case .controlSocketNotASocket(let path):
            return "control socket path \(path) exists and is not a socket: remove it if it is "
                + "not needed, or choose another path with --control-socket"
        case .controlSocketInUse(let path):
            return "control socket \(path) is in use by another running peershared: stop it, "
                + "or choose another path with --control-socket"
        case .controlSocketPathTooLong(let path):
            return "control socket path \(path) is longer than the \(UnixSocket.maxPathBytes) bytes "
                + "a Unix socket allows: choose a shorter one with --control-socket"
        case .controlSocket(let error):
            return "cannot create the control socket: \(error)"
        case .listen(let address, let reason):
            return "cannot listen for peers on \(address): \(reason): free the port or choose "
                + "another with --listen"
        case .listenAddressInUse(let address):
            return "cannot listen for peers on \(address): \(String(cString: strerror(EADDRINUSE))): another "
                + "program (or another peershared) holds the port: stop it, or choose another port with --listen "
                + "or the listen setting"
        case .identity(let directory, let reason):
            return "cannot load or create the peer identity in \(directory): \(reason)"
        case .library(let directory, let reason):
            return "cannot open the photo library in \(directory): \(reason)"
        case .replication(let reason):
            return "cannot start replication: \(reason)"
        case .libraryElsewhere(let found, let stateDirectory):
            return "found a PeerShare library (identity and photos) in \(found), but the state directory "
                + "\(stateDirectory) has none: starting would make a new identity and an empty library. To "
                + "keep yours, move \(found)/identity and \(found)/library into \(stateDirectory) (with "
                + "peershared stopped), or start peershared with --state-dir \(found); to start an empty "
                + "library in \(stateDirectory) anyway, start it once with --new-library"
        }
    }
}
