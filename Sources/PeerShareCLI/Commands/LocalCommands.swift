import ControlProtocol

/// `help [COMMAND...]` and `completion SHELL`: commands `peershare` answers itself, from
/// the command table, without the daemon.
///
/// Their `request` declares their arguments the way a catalog entry does, so that they are
/// parsed like every other command; it is never sent.
enum LocalCommands {
    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["help"], summary: "show help for peershare, a command group or a command",
            arguments: [
                ArgumentSpec(
                    placeholder: "COMMAND", key: "topic", help: "a command or group: share, share create, …",
                    completion: .command, takesRest: true)
            ],
            request: ControlCommand("help", [.optional("topic", .strings)]), mode: .local(run: help)),
        CommandSpec(
            path: ["completion"], summary: "print a shell completion script from this command table",
            arguments: [
                ArgumentSpec(
                    placeholder: "SHELL", key: "shell", help: "bash, zsh or fish",
                    completion: .words(Completion.Shell.allCases.map(\.rawValue)))
            ],
            request: ControlCommand("completion", [.required("shell")]), mode: .local(run: completion)),
    ]

    private static func help(_ parsed: ParsedArguments) throws(CLIError) -> String {
        let parser = CommandLineParser(table: CommandTable.all, workingDirectory: "/")
        let words = parsed["topic"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return HelpText(table: CommandTable.all, groups: parser.groups).render(try parser.helpTopic(words))
    }

    private static func completion(_ parsed: ParsedArguments) throws(CLIError) -> String {
        let name = parsed["shell"]?.stringValue ?? ""
        guard let shell = Completion.Shell(rawValue: name) else {
            let shells = Completion.Shell.allCases.map(\.rawValue)
            let hint = Suggestions.phrase(Suggestions.closest(to: name, among: shells))
            throw .usage(
                "unknown shell '\(name)': " + (hint ?? "the shells are \(shells.joined(separator: ", "))"),
                helpCommand: "peershare completion")
        }
        return Completion(table: CommandTable.all).script(for: shell)
    }
}
