import ControlProtocol

/// The table from command names (`status`, `photo.add`, …) to their handlers.
///
/// Built once at start-up and then read-only, so connection threads read it without locks.
/// A command group registers itself from its own file (`extension ControlRoutes { mutating
/// func registerPhotos(_ services: DaemonServices) }`) and `RouteCatalog` lists the groups.
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
        let summary: String
        let route: Route
    }

    private(set) var entries: [String: Entry] = [:]

    /// Registers a request/response command. Registering a name twice is a programming
    /// error and stops the daemon at start-up, where tests catch it.
    mutating func register(_ command: String, summary: String, _ handler: @escaping Handler) {
        add(command, Entry(summary: summary, route: .unary(handler)))
    }

    /// Registers a request/response command that may report progress before its response.
    mutating func registerWithProgress(
        _ command: String, summary: String, _ handler: @escaping ProgressHandler
    ) {
        add(command, Entry(summary: summary, route: .progress(handler)))
    }

    /// Registers a streaming command (like `watch`).
    mutating func registerStream(_ command: String, summary: String, _ handler: @escaping StreamHandler) {
        add(command, Entry(summary: summary, route: .stream(handler)))
    }

    /// The command called `name`, if registered.
    func entry(_ name: String) -> Entry? { entries[name] }

    /// Every command name, sorted.
    var commandNames: [String] { entries.keys.sorted() }

    private mutating func add(_ command: String, _ entry: Entry) {
        precondition(entries[command] == nil, "control command '\(command)' registered twice")
        entries[command] = entry
    }
}

/// An error type from another layer (a store, replication) that knows which
/// `ControlError` it is, so handlers can just `try` and the client still gets a typed code.
protocol ControlErrorConvertible: Error {
    var controlError: ControlError { get }
}
