import ControlProtocol

/// One `peershare` command as a table entry: its words, what it takes, the control
/// command it sends, and how its answer is printed.
///
/// Adding a command is adding one of these to its group's table; parsing, `--help`,
/// `--json`, errors and exit statuses come for free. By default every argument and option
/// becomes the control argument named by its `key`; a `makeArgs` closure overrides that.
struct CommandSpec: Sendable {
    /// How the answer is turned into text for people (`--json` prints it as is).
    enum Mode: Sendable {
        /// One request, one result.
        case call(format: @Sendable (JSON) -> String)
        /// A stream of events until interrupted or the daemon ends it.
        case stream(format: @Sendable (ControlEvent) -> String)
    }

    let path: [String]
    let summary: String
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    /// The control command sent, such as `photo.add`.
    let request: String
    let mode: Mode
    /// For a long copy (`photo add`, `photo export`): the label of the progress line shown
    /// on stderr while it runs, when stderr is a terminal.
    var progressLabel: String?
    /// Builds the control arguments; nil maps every argument and option by its key.
    var makeArgs: (@Sendable (ParsedArguments) throws(CLIError) -> [String: JSON])?
    /// For a command the daemon answers only after waiting itself (`sync --wait`): the
    /// argument holding that wait in seconds and its default, which the CLI adds to its own
    /// timeout. The global `--timeout` sets that argument instead of the CLI's timeout.
    var daemonWait: (argument: String, defaultSeconds: Int)?

    /// The command's words joined, as help and errors show it: `photo add`.
    var name: String { path.joined(separator: " ") }
}

/// A positional argument such as `FILE` or `VALUE`.
struct ArgumentSpec: Sendable {
    let placeholder: String
    let key: String
    var kind: ValueKind = .text
    var isOptional = false
    let help: String
}

/// An option such as `--name N`, `--tag NAME` (repeatable) or `--wait` (a flag).
struct OptionSpec: Sendable {
    /// Whether the option takes a value, and how many times it may be given.
    enum Arity: Sendable {
        case flag
        case single
        case repeated
    }

    let name: String
    var placeholder = ""
    let key: String
    var arity = Arity.single
    var kind: ValueKind = .text
    let help: String

    /// `--name N`, as usage lines show it.
    var usage: String {
        let base = placeholder.isEmpty ? name : "\(name) \(placeholder)"
        return arity == .repeated ? "[\(base)]..." : "[\(base)]"
    }
}

/// What a value is, so it is checked and converted before anything is sent.
enum ValueKind: Sendable {
    case text
    /// A file path, made absolute: the daemon has its own working directory.
    case path
    case integer
}
