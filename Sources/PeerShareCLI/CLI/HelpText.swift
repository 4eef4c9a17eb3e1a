/// The `--help` pages, written from the command table so they never drift from it.
struct HelpText: Sendable {
    let table: [CommandSpec]
    let groups: [String]

    static let globalOptions = """
        global options:
          --socket PATH  the daemon's control socket (default: $PEERSHARE_SOCKET, else
                         $XDG_RUNTIME_DIR/peershare/peershared.sock, as peershared uses)
          --json         print one JSON value on stdout (errors: {"error": {"code", "message"}})
          --timeout SECONDS
                         how long to wait for the daemon (default: $PEERSHARE_TIMEOUT, else 30);
                         for sync --wait, how long to wait for sync (default 60)
          --author NAME  name this client: history records its changes as local:NAME, and
                         history --exclude-author NAME leaves them out (default: $PEERSHARE_AUTHOR)
          --help         show help for peershare, a command group, or a command
        """

    func render(_ topic: HelpTopic) -> String {
        switch topic {
        case .top: return top
        case .group(let group): return page(group)
        case .command(let command): return page(command)
        }
    }

    private var top: String {
        var lines = [
            "usage: peershare [--socket PATH] [--json] [--timeout SECONDS] [--author NAME] COMMAND [ARGS...]",
            "",
        ]
        lines.append("Drives peershared, the PeerShare daemon, through its control socket.")
        lines.append("")
        lines.append("commands:")
        lines += table.map { "  " + $0.name.padded(to: widest) + $0.summary }
        lines += ["", Self.globalOptions, ""]
        lines.append("Run 'peershare COMMAND --help' for a command's arguments.")
        lines.append(
            "Exit status: 0 success, 1 the daemon refused or failed, 2 usage error, 3 daemon not reachable "
                + "or not answering in time.")
        return lines.joined(separator: "\n")
    }

    private func page(_ group: String) -> String {
        let members = table.filter { $0.path.first == group && $0.path.count > 1 }
        var lines = ["usage: peershare \(group) COMMAND [ARGS...]", "", "commands:"]
        lines += members.map { "  " + $0.name.padded(to: widest) + $0.summary }
        lines += ["", Self.globalOptions]
        return lines.joined(separator: "\n")
    }

    private func page(_ command: CommandSpec) -> String {
        var usage = "usage: peershare \(command.name)"
        for argument in command.arguments {
            usage += command.isOptional(argument) ? " [\(argument.placeholder)]" : " \(argument.placeholder)"
        }
        for option in command.options { usage += " \(command.usage(of: option))" }
        var lines = [usage, "", command.summary]
        if !command.arguments.isEmpty {
            lines += ["", "arguments:"]
            lines += command.arguments.map { "  " + $0.placeholder.padded(to: 16) + $0.help }
        }
        if !command.options.isEmpty {
            lines += ["", "options:"]
            lines += command.options.map { option in
                let left = option.placeholder.isEmpty ? option.name : "\(option.name) \(option.placeholder)"
                return "  " + left.padded(to: 16) + option.help
            }
        }
        lines += ["", Self.globalOptions]
        return lines.joined(separator: "\n")
    }

    private var widest: Int { (table.map(\.name.count).max() ?? 0) + 2 }
}

extension String {
    /// The string padded with spaces to `width` (at least one space after it).
    func padded(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
