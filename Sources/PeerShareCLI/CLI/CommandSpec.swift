import ControlProtocol

/// One `peershare` command as a table entry: its words, what it takes, the control
/// command it sends, and how its answer is printed.
///
/// Adding a command is adding one of these to its group's table; parsing, `--help`,
/// `--json`, errors and exit statuses come for free. Every argument and option becomes the
/// control argument named by its `key`, read as the catalog entry (`request`) types it; a
/// `makeArgs` closure overrides the mapping.
struct CommandSpec: Sendable {
    /// How the answer is turned into text for people (`--json` prints it as is).
    enum Mode: Sendable {
        /// One request, one result.
        case call(format: @Sendable (JSON) -> String)
        /// A stream of events until interrupted or the daemon ends it.
        case stream(format: @Sendable (ControlEvent) -> String)
        /// Answered by `peershare` itself, without the daemon (`help`, `completion`): the
        /// text to print.
        case local(run: @Sendable (ParsedArguments) throws(CLIError) -> String)
    }

    let path: [String]
    let summary: String
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    /// The control command sent, such as `.photoAdd`.
    let request: ControlCommand
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
    /// For a command that is more than one plain request (`photo add` of many files, `photo
    /// export` to stdout): runs it instead of the table's single call, printing as it goes,
    /// and returns the exit status.
    var run: (@Sendable (CommandRun) throws(CLIError) -> Int32)?
    /// Whether a successful answer still reports a failure (`doctor` found a problem): the
    /// answer is printed as usual, then `peershare` exits 1.
    var fails: (@Sendable (JSON) -> Bool)?
    /// For a command whose answer holds a URL to hand to someone (`share create`, `device
    /// link`): the answer's key of that URL, which `--qr` (`OptionSpec.qr`, among the
    /// command's options) draws as a QR code after the text. With `--json` nothing is added:
    /// a program has the URL itself.
    var qrCodeOf: String?

    /// The command's words joined, as help and errors show it: `photo add`.
    var name: String { path.joined(separator: " ") }
}

/// A positional argument such as `FILE` or `VALUE`: the control argument `key`, whose
/// type (and whether it may be left out) the catalog gives.
struct ArgumentSpec: Sendable {
    let placeholder: String
    let key: String
    let help: String
    /// What a shell completes for it, when its placeholder does not say (see
    /// `Completion.Kind(placeholder:)`).
    var completion: Completion.Kind?
    /// The last argument only: it takes every remaining positional word, as given (no path
    /// made absolute), as an array (`help`'s topic words; `photo add`'s files, which its
    /// `run` reads).
    var takesRest = false
}

/// An option such as `--name N`, `--tag NAME` (repeatable) or `--wait` (a flag): the control
/// argument `key`, whose catalog type says which (a Boolean is a flag, an array of strings
/// repeatable, anything else a single value).
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
    let help: String
    /// A one-letter form, such as `-r` for `--recursive`.
    var short: String?
    /// A flag the CLI reads itself (in `run`) and never sends: no control argument.
    var local = false

    /// `--qr`: the URL in the answer drawn as a QR code in the terminal
    /// (`CommandSpec.qrCodeOf`).
    static let qr = OptionSpec(
        name: "--qr", key: "qr",
        help: "also draw the URL as a QR code to scan with a phone (nothing more with --json)", local: true)

    /// How help shows it: `-r, --recursive`, or just the name.
    var label: String { short.map { "\($0), \(name)" } ?? name }
}

extension CommandSpec {
    /// The catalog's declaration of the control argument `key`. Every key of the table is
    /// declared (a test checks the whole table), so a missing one is a mistake here.
    func declared(_ key: String) -> ControlArgument {
        guard let argument = request.argument(key) else {
            preconditionFailure("peershare \(name): the control command \(request) has no argument '\(key)'")
        }
        return argument
    }

    /// Whether a positional argument may be left out: its control argument is optional.
    func isOptional(_ argument: ArgumentSpec) -> Bool { !declared(argument.key).isRequired }

    /// Whether a positional argument takes every word left (`help [COMMAND...]`, `photo add
    /// PATH...`): the last one, when its spec says so.
    func takesTheRest(_ argument: ArgumentSpec) -> Bool {
        argument.takesRest && argument.key == arguments.last?.key
    }

    /// Whether `key` is one of the command's local options, which are never sent.
    func isLocalOption(_ key: String) -> Bool { options.contains { $0.local && $0.key == key } }

    /// Whether `peershare` answers the command itself, without the daemon.
    var isLocal: Bool {
        if case .local = mode { return true }
        return false
    }

    /// How an option is given, from its control argument's type.
    func arity(of option: OptionSpec) -> OptionSpec.Arity {
        if option.local { return .flag }
        switch declared(option.key).type {
        case .boolean: return .flag
        case .strings: return .repeated
        case .string, .absolutePath, .integer: return .single
        }
    }

    /// `PHOTO` or `PATH...`: an argument as help, errors and the manual name it.
    func name(of argument: ArgumentSpec) -> String {
        takesTheRest(argument) ? argument.placeholder + "..." : argument.placeholder
    }

    /// `PHOTO`, `[PEER_ID]` or `[COMMAND...]`, as usage lines show an argument.
    func usage(of argument: ArgumentSpec) -> String {
        isOptional(argument) ? "[\(name(of: argument))]" : name(of: argument)
    }

    /// The command's words, arguments and options: `photo add FILE [--name N] …`.
    var synopsis: String {
        ([name] + arguments.map(usage(of:)) + options.map(usage(of:))).joined(separator: " ")
    }

    /// `[--name N]`, `[--tag NAME]...` or `[--wait]`, as usage lines show an option.
    func usage(of option: OptionSpec) -> String {
        let base = option.placeholder.isEmpty ? option.label : "\(option.label) \(option.placeholder)"
        return arity(of: option) == .repeated ? "[\(base)]..." : "[\(base)]"
    }
}

/// What a command's own `run` gets: its parsed arguments and how to reach the daemon.
struct CommandRun: Sendable {
    let command: CommandSpec
    let arguments: ParsedArguments
    let socket: String
    let json: Bool
    /// Seconds the CLI waits for the daemon at each step.
    let timeout: Int
    let workingDirectory: String
    /// `--author NAME` (or `$PEERSHARE_AUTHOR`): the name history records this client's changes under.
    let author: String?

    /// Runs the command as the table describes it (one request, its answer printed), for a
    /// `run` that does something else only in some cases.
    func asTable() throws(CLIError) -> Int32 {
        try PeerShareMain.execute(
            command, arguments, socket: socket, json: json, timeout: timeout, fallbackTimeout: timeout,
            author: author) ? 1 : 0
    }

    /// A connection to the daemon, its errors as the CLI reports them.
    func connect() throws(CLIError) -> ControlClient {
        do {
            let client = try ControlClient(socketPath: socket, timeout: .seconds(timeout))
            client.author = author
            return client
        } catch {
            throw .client(error)
        }
    }
}
