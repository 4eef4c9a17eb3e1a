import ControlProtocol

/// Why a `peershare` invocation failed: wrong usage, or what the daemon (or reaching it)
/// said. One place maps each to its `--json` code, its message and its exit status.
enum CLIError: Error, Sendable, CustomStringConvertible {
    /// The command line is wrong; `helpCommand` is what `--help` to suggest.
    case usage(String, helpCommand: String)
    case client(ControlClientError)
    /// Something on this side failed (a temporary file, standard input or output).
    case local(String)

    /// Exit statuses: 1 the daemon refused or failed, 2 usage, 3 daemon not reachable (or
    /// not answering within the timeout).
    var exitStatus: Int32 {
        switch self {
        case .usage: return 2
        case .client(.unreachable), .client(.cannotConnect), .client(.timedOut): return 3
        case .client, .local: return 1
        }
    }

    /// Every exit status `peershare` uses and what it means, as help and the manual say.
    static let exitStatuses: [(status: Int32, meaning: String)] = [
        (0, "success"), (1, "the daemon refused or failed"), (2, "usage error"),
        (3, "daemon not reachable or not answering in time"),
    ]

    var code: String {
        switch self {
        case .usage: return "usage"
        case .client(let error): return error.code
        case .local: return "io_error"
        }
    }

    var description: String {
        switch self {
        case .usage(let message, let helpCommand): return "\(message) (see '\(helpCommand) --help')"
        case .client(let error): return error.description
        case .local(let message): return message
        }
    }
}
