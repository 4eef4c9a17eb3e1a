import ControlProtocol

/// `peershare`'s entry point: parse, connect, send, print; the one place that turns any
/// failure into `peershare: <message>` on stderr (plus the JSON error with `--json`) and an
/// exit status.
enum PeerShareMain {
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
            case .run(let command, let parsed):
                let socket =
                    globals.socket ?? environment["PEERSHARE_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
                    ?? PeerSharePaths(environment: environment).controlSocket
                try execute(command, parsed, socket: socket, json: globals.json)
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

    private static func execute(
        _ command: CommandSpec, _ parsed: ParsedArguments, socket: String, json: Bool
    ) throws(CLIError) {
        var args = try command.makeArgs?(parsed) ?? parsed.values
        let progress = command.progressLabel.flatMap { ProgressLine(label: $0) }
        if progress != nil { args["progress"] = true }
        do {
            let client = try ControlClient(socketPath: socket)
            switch command.mode {
            case .call(let format):
                let result = try call(client, command.request, args, progress: progress)
                if json {
                    Output.json(result)
                } else {
                    let text = format(result)
                    if !text.isEmpty { Output.out(text) }
                }
            case .stream(let format):
                StreamInterrupter.shared.interruptOnSignal(client)
                try client.stream(command.request, args: args) { event in
                    Output.out(json ? JSONLine.string(event.json) : format(event))
                    return true
                }
            }
        } catch {
            throw .client(error)
        }
    }

    /// One call, with its progress line (if any) erased before anything else is printed.
    private static func call(
        _ client: ControlClient, _ request: String, _ args: [String: JSON], progress: ProgressLine?
    ) throws(ControlClientError) -> JSON {
        defer { progress?.clear() }
        return try client.call(request, args: args, onEvent: progress?.show)
    }
}
