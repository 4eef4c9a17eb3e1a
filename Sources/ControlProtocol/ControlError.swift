/// An error a control command answers with: a stable machine-readable `code` and a message
/// for people.
///
/// Scripts branch on `code`; people read `message`, which says what failed, on what, and
/// what to do next. Handlers throw it; the server turns it into the response's `error`.
public struct ControlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable error code. New codes are added as static members next to the command
    /// group that needs them.
    public struct Code: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral,
        CustomStringConvertible
    {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
        public var description: String { rawValue }

        /// The request line is not valid JSON.
        public static let invalidJSON: Code = "invalid_json"
        /// The line is JSON but not a request object (`command` missing, `args` not an object).
        public static let invalidRequest: Code = "invalid_request"
        /// The request line is longer than the daemon's `max_control_line_bytes`.
        public static let lineTooLong: Code = "line_too_long"
        /// No command of that name is registered.
        public static let unknownCommand: Code = "unknown_command"
        /// An argument is missing, of the wrong type, unknown, or out of range.
        public static let invalidArguments: Code = "invalid_arguments"
        /// The connecting process runs as another user.
        public static let permissionDenied: Code = "permission_denied"
        /// The daemon already serves its maximum number of control connections.
        public static let tooManyConnections: Code = "too_many_connections"
        /// The connection sent no complete request within the daemon's `control_idle_timeout`.
        public static let idleTimeout: Code = "idle_timeout"
        /// The daemon is stopping and takes no more requests.
        public static let shuttingDown: Code = "shutting_down"
        /// A `watch` client read too slowly and missed events.
        public static let eventsDropped: Code = "events_dropped"
        /// `sync`: changes made here were refused by a peer (and undone here).
        public static let changesRefused: Code = "changes_refused"
        /// The daemon failed in a way the request could not cause; the log has details.
        public static let internalError: Code = "internal"
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// The `{"code", "message"}` object of an error response.
    public var json: JSON { ["code": .string(code.rawValue), "message": .string(message)] }

    /// Reads the `{"code", "message"}` object back; nil when the shape is wrong.
    public init?(json: JSON) {
        guard let code = json["code"]?.stringValue, let message = json["message"]?.stringValue else {
            return nil
        }
        self.init(Code(rawValue: code), message)
    }
}
