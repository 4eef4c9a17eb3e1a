import ControlProtocol

/// `peershare`'s entry point: parse, connect, send, print; the one place that turns any
/// failure into `peershare: <message>` on stderr (plus the JSON error with `--json`) and an
/// exit status.
enum PeerShareMain {
    /// Seconds the CLI waits for the daemon when neither `--timeout` nor
    /// `$PEERSHARE_TIMEOUT` says otherwise.
    static let defaultTimeout = 30

    static func run(arguments: [String], environment: [String: String], workingDirectory: String) -> Int32 {
        let parser = CommandLineParser(table: CommandTable.all, workingDirectory: workingDirectory)
        var globals = GlobalOptions(json: arguments.contains("--json"))
        do {
            let invocation: Invocation
            (globals, invocation) = try parser.parse(arguments)
            switch invocation {
            case .version:
                Output.out(
                    globals.json
                        ? JSONLine.string(["version": .string(PeerShareVersion.string)])
                        : "peershare \(PeerShareVersion.string)")
            case .help(let topic):
                Output.out(HelpText(table: CommandTable.all, groups: parser.groups).render(topic))
            case .manPage:
                Output.out(ManPage(table: CommandTable.all).render())
            case .run(let command, let parsed):
                if case .local(let run) = command.mode {
                    Output.out(try run(parsed))
                    break
                }
                let socket =
                    globals.socket ?? environment["PEERSHARE_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
                    ?? PeerSharePaths(environment: environment).controlSocket
                let fallback = try environment["PEERSHARE_TIMEOUT"].flatMap { $0.isEmpty ? nil : $0 }.map {
                    text throws(CLIError) in try CommandLineParser.seconds(text, from: "PEERSHARE_TIMEOUT")
                }
                var author = globals.author
                if author == nil, let named = environment["PEERSHARE_AUTHOR"], !named.isEmpty {
                    author = try CommandLineParser.author(named, from: "PEERSHARE_AUTHOR")
                }
                if let run = command.run {
                    return try run(
                        CommandRun(
                            command: command, arguments: parsed, socket: socket, json: globals.json,
                            timeout: globals.timeout ?? fallback ?? defaultTimeout,
                            workingDirectory: workingDirectory, author: author))
                }
                let reportsFailure = try execute(
                    command, parsed, socket: socket, json: globals.json, timeout: globals.timeout,
                    fallbackTimeout: fallback ?? defaultTimeout, author: author)
                if reportsFailure { return 1 }
            }
            return 0
        } catch {
            if globals.json {
                Output.json(["error": ["code": .string(error.code), "message": .string(error.description)]])
            }
            Output.err("peershare: \(error.description)")
            return error.exitStatus
        }
    }

    /// Sends the command and prints its answer; true when the answer reports a failure
    /// (`CommandSpec.fails`). `timeout` is the `--timeout` given, if any; `fallbackTimeout`
    /// the CLI's own limit otherwise.
    static func execute(
        _ command: CommandSpec, _ parsed: ParsedArguments, socket: String, json: Bool, timeout: Int?,
        fallbackTimeout: Int, author: String?
    ) throws(CLIError) -> Bool {
        // Local options (`photo add -r`, `--qr`) are the CLI's own: never sent.
        var args = try command.makeArgs?(parsed) ?? parsed.values.filter { !command.isLocalOption($0.key) }
        var seconds = timeout ?? fallbackTimeout
        if let wait = command.daemonWait {
            // The daemon answers once its own wait is over: give it that, then the usual time.
            if let timeout { args[wait.argument] = .int(timeout) }
            seconds = (args[wait.argument]?.intValue ?? wait.defaultSeconds) + fallbackTimeout
        }
        let progress = command.progressLabel.flatMap { ProgressLine(label: $0) }
        // Progress events also tell the CLI that a long copy is still going, so it asks for
        // them whether or not it draws the line.
        if command.progressLabel != nil { args["progress"] = true }
        let answer: JSON
        do {
            let client = try ControlClient(socketPath: socket, timeout: .seconds(seconds))
            client.author = author
            switch command.mode {
            case .call:
                answer = try call(client, command.request, args, progress: progress)
            case .local:
                preconditionFailure("peershare \(command.name) is answered without the daemon")
            case .stream(let format):
                StreamInterrupter.shared.interruptOnSignal(client)
                try client.stream(command.request.name, args: args) { event in
                    Output.out(json ? JSONLine.string(event.json) : format(event))
                    return true
                }
                return false
            }
        } catch {
            throw .client(error)
        }
        guard case .call(let format) = command.mode else { return false }
        if json {
            Output.json(answer)
        } else {
            let text = format(answer)
            if !text.isEmpty { Output.out(text) }
            if let key = command.qrCodeOf, parsed["qr"] == true {
                Output.out(try QRTerminalText.render(url: Formatting.text(answer[key])))
            }
        }
        return command.fails?(answer) ?? false
    }

    /// One call, with its progress line (if any) erased before anything else is printed.
    private static func call(
        _ client: ControlClient, _ request: ControlCommand, _ args: [String: JSON], progress: ProgressLine?
    ) throws(ControlClientError) -> JSON {
        defer { progress?.clear() }
        return try client.call(request.name, args: args, onEvent: progress?.show ?? { _ in })
    }
}
