import ControlProtocol
import Support

/// The table from the catalog's commands (`ControlCommand.status`, `.photoAdd`, …) to
/// their handlers.
///
/// Built once at start-up and then read-only, so connection threads read it without locks.
/// A command group registers itself from its own file (`extension ControlRoutes { mutating
/// func registerPhotos(_ services: DaemonServices) }`) and `RouteCatalog` lists the groups.
/// Names and arguments come from the catalog: a handler reads arguments the connection has
/// already checked against its command's entry.
struct ControlRoutes: Sendable {
    /// Answers one request: its arguments in, its `result` out. Throw a `ControlError` (or
    /// an error that is `ControlErrorConvertible`) for a typed error response. Runs on the
    /// connection's own thread, so blocking (SQLite, disk) is fine here.
    typealias Handler = @Sendable (ControlArguments) throws -> JSON

    /// Serves a streaming request: acknowledge on `stream`, then write events until the
    /// client leaves or the daemon stops. The connection closes when it returns.
    typealias StreamHandler = @Sendable (ControlArguments, ControlStream) throws -> Void

    /// Answers one long request (a photo copied in or out), reporting progress on the way
    /// when the client adds `"progress": true` to its arguments.
    typealias ProgressHandler = @Sendable (ControlArguments, ProgressReporter) throws -> JSON

    /// How a command is served.
    enum Route: Sendable {
        case unary(Handler)
        case progress(ProgressHandler)
        case stream(StreamHandler)
    }

    /// A registered command.
    struct Entry: Sendable {
        let command: ControlCommand
        let route: Route
    }

    private(set) var entries: [String: Entry] = [:]

    /// Registers a request/response command. Registering a name twice, or with a handler
    /// of another kind than the catalog's mode, is a programming error and stops the daemon
    /// at start-up, where tests catch it.
    mutating func register(_ command: ControlCommand, _ handler: @escaping Handler) {
        add(Entry(command: command, route: .unary(handler)), mode: .call)
    }

    /// Registers a request/response command that may report progress before its response.
    mutating func registerWithProgress(_ command: ControlCommand, _ handler: @escaping ProgressHandler) {
        add(Entry(command: command, route: .progress(handler)), mode: .progress)
    }

    /// Registers a streaming command (like `watch`).
    mutating func registerStream(_ command: ControlCommand, _ handler: @escaping StreamHandler) {
        add(Entry(command: command, route: .stream(handler)), mode: .stream)
    }

    /// The command called `name`, if registered.
    func entry(_ name: String) -> Entry? { entries[name] }

    /// Every command name, sorted.
    var commandNames: [String] { entries.keys.sorted() }

    /// The typed error for whatever a handler threw; unexpected errors are logged in full
    /// and reach the client as `internal`.
    static func controlError(_ error: any Error, command: String, logger: Logger) -> ControlError {
        if let typed = error as? ControlError { return typed }
        if let convertible = error as? any ControlErrorConvertible { return convertible.controlError }
        if error is SystemCallError {
            return ControlError(.internalError, "\(command): the connection failed while streaming")
        }
        logger.error("control command failed unexpectedly: \(error)", ["command": command])
        return ControlError(.internalError, "\(command) failed inside peershared: see its log for details")
    }

    private mutating func add(_ entry: Entry, mode: ControlCommand.Mode) {
        let name = entry.command.name
        precondition(entries[name] == nil, "control command '\(name)' registered twice")
        precondition(entry.command.mode == mode, "control command '\(name)' registered as another kind")
        entries[name] = entry
    }
}

/// An error type from another layer (a store, replication) that knows which
/// `ControlError` it is, so handlers can just `try` and the client still gets a typed code.
protocol ControlErrorConvertible: Error {
    var controlError: ControlError { get }
}
