/// `peershare completion bash|zsh|fish`: a completion script written from the command
/// table, so a new command or option completes without touching any script.
///
/// The table becomes three lookups, the same in every shell: the command words after a
/// command path, the options a command takes, and how a value completes (an option's, or
/// the Nth argument's). Each shell gets them in its own syntax, plus a small fixed driver
/// (`CompletionScripts`) that walks the words typed so far and asks them.
struct Completion: Sendable {
    /// The shells a script is written for.
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// How a value completes: a file name, a directory, one of some words, a command path
    /// (`help share create`), or free text (nothing to offer, but the value is skipped).
    enum Kind: Equatable, Sendable {
        case file
        case directory
        case words([String])
        case command
        case text

        /// The kind a placeholder implies: `FILE`, `PATH`… complete files, `DIR` directories.
        init(placeholder: String) {
            if placeholder.contains("DIR") {
                self = .directory
            } else if placeholder.contains("FILE") || placeholder.contains("PATH") {
                self = .file
            } else {
                self = .text
            }
        }

        /// The kind as the drivers read it: `file`, `directory`, `command`, `text`, or
        /// `words a b c`.
        var code: String {
            switch self {
            case .file: return "file"
            case .directory: return "directory"
            case .command: return "command"
            case .text: return "text"
            case .words(let words): return (["words"] + words).joined(separator: " ")
            }
        }
    }

    /// One row of a lookup: a pattern (matched against "PATH" or "PATH OPTION" or
    /// "PATH INDEX"; a trailing `*` matches anything) and the text it answers.
    struct Row: Equatable, Sendable {
        let pattern: String
        let answer: String
    }

    let table: [CommandSpec]

    func script(for shell: Shell) -> String {
        switch shell {
        case .bash: return CompletionScripts.bash(self)
        case .zsh: return CompletionScripts.zsh(self)
        case .fish: return CompletionScripts.fish(self)
        }
    }

    /// The command words that may follow each path: `""` the first words, `share` its
    /// subcommands. Only paths with words are listed.
    var words: [Row] {
        var paths: [String] = []
        var following: [String: [String]] = [:]
        for spec in table {
            for depth in 0..<spec.path.count {
                let path = spec.path.prefix(depth).joined(separator: " ")
                if following[path] == nil { paths.append(path) }
                if !(following[path] ?? []).contains(spec.path[depth]) {
                    following[path, default: []].append(spec.path[depth])
                }
            }
        }
        return paths.map { Row(pattern: $0, answer: following[$0]!.joined(separator: " ")) }
    }

    /// Each command's options, the global ones after its own (only the global ones for a
    /// command without options of its own).
    var options: [Row] {
        let global = GlobalOptionSpec.all.map(\.name)
        return table.filter { !$0.options.isEmpty }.map { spec in
            let own = spec.options.map(\.name)
            return Row(
                pattern: spec.name, answer: (own + global.filter { !own.contains($0) }).joined(separator: " ")
            )
        } + [Row(pattern: "*", answer: global.joined(separator: " "))]
    }

    /// How each option's value completes ("PATH OPTION"); flags are absent, so a driver
    /// knows that they take no value.
    var values: [Row] {
        var rows: [Row] = []
        for spec in table {
            for option in spec.options where spec.arity(of: option) != .flag {
                rows.append(
                    Row(
                        pattern: "\(spec.name) \(option.name)",
                        answer: Kind(placeholder: option.placeholder).code))
            }
        }
        for option in GlobalOptionSpec.all where !option.placeholder.isEmpty {
            rows.append(Row(pattern: "* \(option.name)", answer: Kind(placeholder: option.placeholder).code))
        }
        return rows
    }

    /// How each positional argument completes ("PATH INDEX", or "PATH *" for one that
    /// takes every word left); arguments with nothing to offer are absent.
    var arguments: [Row] {
        var rows: [Row] = []
        for spec in table {
            for (index, argument) in spec.arguments.enumerated() {
                let kind = argument.completion ?? Kind(placeholder: argument.placeholder)
                guard kind != .text else { continue }
                let pattern = spec.takesTheRest(argument) ? "\(spec.name) *" : "\(spec.name) \(index)"
                rows.append(Row(pattern: pattern, answer: kind.code))
            }
        }
        return rows
    }
}
