import ControlProtocol

/// Options that apply to every command, accepted anywhere on the line.
struct GlobalOptions: Sendable {
    var socket: String?
    var json = false
    /// `--timeout SECONDS`: how long to wait for the daemon (for `sync --wait`, how long it
    /// waits for sync).
    var timeout: Int?
    /// `--author NAME`: the client's name, recorded in history (`ClientAuthor`).
    var author: String?
}

/// What the command line asks for.
enum Invocation: Sendable {
    case help(HelpTopic)
    case version
    /// `--man`: the peershare(1) manual page in roff, which `docs/man/peershare.1` holds.
    case manPage
    case run(CommandSpec, ParsedArguments)
}

/// Which help page to print.
enum HelpTopic: Sendable {
    case top
    case group(String)
    case command(CommandSpec)
}

/// Turns `peershare`'s arguments into an `Invocation`, driven by the command table.
struct CommandLineParser: Sendable {
    let table: [CommandSpec]
    let workingDirectory: String

    func parse(_ arguments: [String]) throws(CLIError) -> (GlobalOptions, Invocation) {
        var globals = GlobalOptions()
        var wantsHelp = false
        var wantsVersion = false
        var wantsManPage = false
        var rest: [String] = []
        var tokens = arguments[...]
        while let token = tokens.popFirst() {
            switch token {
            case "--":
                rest.append(token)
                rest.append(contentsOf: tokens)
                tokens = []
            case "--json": globals.json = true
            case "--help", "-h": wantsHelp = true
            case "--version": wantsVersion = true
            case "--man": wantsManPage = true
            case "--socket":
                guard let value = tokens.popFirst() else {
                    throw .usage("--socket needs a PATH", helpCommand: "peershare")
                }
                globals.socket = value
            case _ where token.hasPrefix("--socket="):
                globals.socket = String(token.dropFirst("--socket=".count))
            case "--timeout":
                guard let value = tokens.popFirst() else {
                    throw .usage("--timeout needs SECONDS", helpCommand: "peershare")
                }
                globals.timeout = try Self.seconds(value, from: "--timeout")
            case _ where token.hasPrefix("--timeout="):
                globals.timeout = try Self.seconds(
                    String(token.dropFirst("--timeout=".count)), from: "--timeout")
            case "--author":
                guard let value = tokens.popFirst() else {
                    throw .usage("--author needs a NAME", helpCommand: "peershare")
                }
                globals.author = try Self.author(value, from: "--author")
            case _ where token.hasPrefix("--author="):
                globals.author = try Self.author(String(token.dropFirst("--author=".count)), from: "--author")
            default: rest.append(token)
            }
        }
        if wantsManPage && rest.isEmpty { return (globals, .manPage) }
        guard let command = longestMatch(rest) else {
            return (globals, try unmatched(rest, wantsHelp: wantsHelp, wantsVersion: wantsVersion))
        }
        if wantsHelp { return (globals, .help(.command(command))) }
        let parsed = try parseArguments(Array(rest.dropFirst(command.path.count)), for: command)
        return (globals, .run(command, parsed))
    }

    /// The first word of every multi-word command: `photo`, `tag`, `share`, …
    var groups: [String] {
        var seen: [String] = []
        for spec in table where spec.path.count > 1 && !seen.contains(spec.path[0]) {
            seen.append(spec.path[0])
        }
        return seen
    }

    private func longestMatch(_ words: [String]) -> CommandSpec? {
        table.filter { words.starts(with: $0.path) }.max { $0.path.count < $1.path.count }
    }

    private func unmatched(_ words: [String], wantsHelp: Bool, wantsVersion: Bool) throws(CLIError)
        -> Invocation
    {
        guard let first = words.first else {
            if wantsVersion { return .version }
            if wantsHelp { return .help(.top) }
            throw .usage("missing command", helpCommand: "peershare")
        }
        if groups.contains(first) && wantsHelp { return .help(.group(first)) }
        if first.hasPrefix("-") {
            let hint = Suggestions.phrase(Suggestions.closest(to: first, among: Self.globalOptionNames))
            throw .usage(
                "unknown option '\(first)'" + (hint.map { ": \($0)" } ?? " before the command"),
                helpCommand: "peershare")
        }
        throw unknownCommand(words)
    }

    /// The options `parse` takes before or after any command.
    static let globalOptionNames = GlobalOptionSpec.all.map(\.name) + ["--version"]

    /// The help page `words` name (`help share create`): the top page for none, a group's
    /// page or a command's; anything else is a usage error with a suggestion.
    func helpTopic(_ words: [String]) throws(CLIError) -> HelpTopic {
        guard let first = words.first else { return .top }
        if let command = table.first(where: { $0.path == words }) { return .command(command) }
        if words == [first], groups.contains(first) { return .group(first) }
        throw unknownCommand(words)
    }

    /// Why `words` name no command: a group without (or with a wrong) subcommand, or an
    /// unknown word; with the nearest names when some are close, else every name.
    private func unknownCommand(_ words: [String]) -> CLIError {
        let first = words[0]
        if groups.contains(first) {
            let commands = table.filter { $0.path.first == first }.map {
                $0.path.dropFirst().joined(separator: " ")
            }
            guard words.count > 1 else {
                return .usage(
                    "'\(first)' needs a command: \(first) commands are \(commands.joined(separator: ", "))",
                    helpCommand: "peershare \(first)")
            }
            let hint = Suggestions.phrase(
                Suggestions.closest(to: words[1], among: commands).map { "\(first) \($0)" })
            return .usage(
                "unknown command '\(first) \(words[1])': "
                    + (hint ?? "\(first) commands are \(commands.joined(separator: ", "))"),
                helpCommand: "peershare \(first)")
        }
        let names = (table.filter { $0.path.count == 1 }.map(\.name) + groups).sorted()
        let hint = Suggestions.phrase(Suggestions.closest(to: first, among: names))
        return .usage(
            "unknown command '\(first)': " + (hint ?? "the commands are \(names.joined(separator: ", "))"),
            helpCommand: "peershare")
    }

    private func parseArguments(_ tokens: [String], for command: CommandSpec) throws(CLIError)
        -> ParsedArguments
    {
        let help = "peershare \(command.name)"
        var parsed = ParsedArguments()
        var positionals: [String] = []
        var remaining = tokens[...]
        var literal = false
        while let token = remaining.popFirst() {
            if literal || token == "-" || !token.hasPrefix("-") {
                positionals.append(token)
                continue
            }
            if token == "--" {
                literal = true
                continue
            }
            let (name, inline) = Self.split(token)
            guard let option = command.options.first(where: { $0.name == name || $0.short == name }) else {
                let names = command.options.map(\.name) + Self.globalOptionNames
                let hint = Suggestions.phrase(Suggestions.closest(to: name, among: names))
                throw .usage(
                    "unknown option '\(name)' for '\(command.name)'" + (hint.map { ": \($0)" } ?? ""),
                    helpCommand: help)
            }
            try apply(option, inline: inline, remaining: &remaining, to: &parsed, command: command)
        }
        for (index, argument) in command.arguments.enumerated() {
            guard index < positionals.count else {
                if command.isOptional(argument) { continue }
                throw .usage("'\(command.name)' needs \(command.name(of: argument))", helpCommand: help)
            }
            if command.takesTheRest(argument) {
                // `help share create`, `photo add a.jpg b.jpg`: the words as given, every one left.
                parsed.values[argument.key] = .array(positionals.dropFirst(index).map(JSON.string))
                return parsed
            }
            parsed.values[argument.key] = try ParsedArguments.convert(
                positionals[index], type: command.declared(argument.key).type, label: argument.placeholder,
                command: command,
                workingDirectory: workingDirectory)
        }
        if positionals.count > command.arguments.count {
            throw .usage("unexpected argument '\(positionals[command.arguments.count])'", helpCommand: help)
        }
        return parsed
    }

    private func apply(
        _ option: OptionSpec, inline: String?, remaining: inout ArraySlice<String>,
        to parsed: inout ParsedArguments,
        command: CommandSpec
    ) throws(CLIError) {
        let help = "peershare \(command.name)"
        let arity = command.arity(of: option)
        if option.local {
            guard inline == nil else { throw .usage("\(option.name) takes no value", helpCommand: help) }
            parsed.values[option.key] = true
            return
        }
        if arity == .flag {
            guard inline == nil else { throw .usage("\(option.name) takes no value", helpCommand: help) }
            parsed.values[option.key] = true
            return
        }
        guard let text = inline ?? remaining.popFirst() else {
            throw .usage("\(option.name) needs \(option.placeholder)", helpCommand: help)
        }
        let value = try ParsedArguments.convert(
            text, type: command.declared(option.key).type, label: option.name, command: command,
            workingDirectory: workingDirectory)
        if arity == .repeated {
            parsed.values[option.key] = .array((parsed.values[option.key]?.arrayValue ?? []) + [value])
        } else {
            guard parsed.values[option.key] == nil else {
                throw .usage("\(option.name) is given twice", helpCommand: help)
            }
            parsed.values[option.key] = value
        }
    }

    /// A client name the daemon will take (checked here too, so a typo costs no round trip).
    static func author(_ text: String, from source: String) throws(CLIError) -> String {
        do {
            return try ClientAuthor.check(text)
        } catch {
            throw .usage("\(source): \(error.message)", helpCommand: "peershare")
        }
    }

    /// A timeout given as whole seconds, at least 1.
    static func seconds(_ text: String, from source: String) throws(CLIError) -> Int {
        guard let seconds = Int(text), seconds >= 1 else {
            throw .usage(
                "\(source) must be a whole number of seconds, at least 1, not '\(text)'",
                helpCommand: "peershare")
        }
        return seconds
    }

    private static func split(_ token: String) -> (String, String?) {
        guard let equals = token.firstIndex(of: "=") else { return (token, nil) }
        return (String(token[..<equals]), String(token[token.index(after: equals)...]))
    }
}
