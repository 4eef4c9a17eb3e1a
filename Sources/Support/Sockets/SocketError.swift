import Glibc

/// Why a TCP operation failed, phrased for the person reading the log: the address
/// involved, the system's reason, and what to check next.
public enum SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The host name or address could not be turned into a socket address.
    case cannotResolve(host: String, reason: String)
    /// Listening on the address failed (port in use, no permission, no such interface…).
    case cannotListen(address: String, reason: String)
    /// Another socket holds the address (EADDRINUSE): trying again will not help until
    /// that program lets it go.
    case addressInUse(address: String)
    /// The peer refused or the network failed while connecting.
    case cannotConnect(address: String, reason: String)
    /// Connecting took longer than the caller allowed.
    case connectTimedOut(address: String, after: Duration)
    /// A socket call failed outside the cases above.
    case systemCallFailed(operation: String, reason: String)

    public var description: String {
        switch self {
        case .cannotResolve(let host, let reason):
            return "cannot resolve host '\(host)': \(reason); check the address for typos"
        case .cannotListen(let address, let reason):
            return "cannot listen on \(address): \(reason); choose another address or port "
                + "(port 0 picks a free one) or stop the program that uses it"
        case .addressInUse(let address):
            return
                "cannot listen on \(address): \(String(cString: strerror(EADDRINUSE))); choose another port "
                + "(port 0 picks a free one) or stop the program that uses it"
        case .cannotConnect(let address, let reason):
            return "cannot connect to \(address): \(reason); check that the peer is running "
                + "and that the address is right"
        case .connectTimedOut(let address, let after):
            return "connecting to \(address) timed out after \(after); "
                + "the peer may be offline or a firewall may drop the traffic"
        case .systemCallFailed(let operation, let reason):
            return "\(operation) failed: \(reason)"
        }
    }
}
