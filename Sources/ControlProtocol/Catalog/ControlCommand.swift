/// A control command as the protocol defines it: its name, how it is answered, and the
/// arguments it takes.
///
/// The one description both ends use. The daemon registers its handler under the catalog
/// entry and checks every request against it (unknown, missing and mistyped arguments are
/// refused before the handler runs); the CLI's command table names the entry it sends and
/// reads each value the way the entry's type says. `ControlCommand.all` lists the entries,
/// and a test checks that the daemon's routes and the CLI's commands both cover it.
public struct ControlCommand: Sendable, Hashable, CustomStringConvertible {
    /// How the daemon answers the command.
    public enum Mode: Sendable, Hashable {
        /// One request, one response.
        case call
        /// One response, after `progress` events when the request asks for them with
        /// `"progress": true` (a long copy in or out).
        case progress
        /// An acknowledgement, then events until the client leaves (`watch`).
        case stream
    }

    /// The name a request carries in `command`, such as `photo.add`.
    public let name: String
    public let mode: Mode
    /// Every argument the command accepts, in the order they are checked.
    public let arguments: [ControlArgument]

    public init(_ name: String, mode: Mode = .call, _ arguments: [ControlArgument] = []) {
        self.name = name
        self.mode = mode
        self.arguments = arguments
    }

    /// The declared argument called `key`, if any.
    public func argument(_ key: String) -> ControlArgument? {
        arguments.first { $0.key == key }
    }

    public var description: String { name }
}
