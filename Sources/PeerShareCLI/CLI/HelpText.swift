/// The `--help` pages, written from the command table so they never drift from it.
struct HelpText: Sendable {
    let table: [CommandSpec]
    let groups: [String]

    /// The global options, as every page ends: a long option and placeholder puts its
    /// description on the next line.
    static var globalOptions: String {
        var lines = ["global options:"]
        for option in GlobalOptionSpec.all {
            let left = "  " + option.usage
            let indent = String(repeating: " ", count: 17)
            if left.count < 16 {
                lines.append(left.padded(to: 17) + option.help[0])
            } else {
                lines += [left, indent + option.help[0]]
            }
            lines += option.help.dropFirst().map { indent + $0 }
        }
        return lines.joined(separator: "\n")
    }

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
        lines.append(
            "Run 'peershare help COMMAND' (or 'peershare COMMAND --help') for a command's arguments.")
        lines.append(
            "Exit status: "
                + CLIError.exitStatuses.map { "\($0.status) \($0.meaning)" }.joined(separator: ", ") + ".")
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
        var lines = ["usage: peershare \(command.synopsis)", "", command.summary]
        if !command.arguments.isEmpty {
            lines += ["", "arguments:"]
            lines += command.arguments.map { "  " + command.name(of: $0).padded(to: 16) + $0.help }
        }
        if !command.options.isEmpty {
            lines += ["", "options:"]
            lines += command.options.map { option in
                let left = option.placeholder.isEmpty ? option.label : "\(option.label) \(option.placeholder)"
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
