/// `peershared`'s command line: which config file, and which settings the flags override.
///
/// Table-driven: every flag but `--config` maps to a setting key, so flags are validated
/// by the same `SettingsTable` entries as the file.
struct DaemonArguments: Sendable, Equatable {
    /// A flag that overrides one setting.
    struct Flag: Sendable {
        let name: String
        let key: String
        let placeholder: String
        let help: String
        /// Given several times, the values add up (comma-separated) instead of the last
        /// one winning.
        var repeatable = false
    }

    /// One override given on the command line.
    struct Override: Sendable, Equatable {
        let flag: String
        let key: String
        let value: String
    }

    static let flags: [Flag] = [
        Flag(
            name: "--state-dir", key: "state_dir", placeholder: "DIR",
            help: "where stores, identity and lock live"),
        Flag(
            name: "--listen", key: "listen", placeholder: "HOST:PORT",
            help: "peer address to bind (port 0: any)"),
        Flag(
            name: "--advertise", key: "advertise", placeholder: "HOST:PORT",
            help: "address peers dial, first in share URLs (repeatable, or comma-separated)", repeatable: true
        ),
        Flag(
            name: "--web-listen", key: "web_listen", placeholder: "HOST:PORT",
            help: "web gallery address to bind (port 0: any; off: no gallery)"),
        Flag(
            name: "--control-socket", key: "control_socket", placeholder: "PATH", help: "control socket path"),
        Flag(
            name: "--log-level", key: "log_level", placeholder: "LEVEL", help: "error, warning, info or debug"
        ),
    ]

    var configFile: String?
    var overrides: [Override] = []
    /// `--new-library`: start an empty library even though one exists in another known
    /// state directory (see `LibraryLocations`).
    var newLibrary = false
    /// `--restore DIR`: restore the backup in DIR into the (new or empty) state directory,
    /// then exit.
    var restore: String?
    var showHelp = false
    var showVersion = false
    /// `--man`: print the peershared(8) manual page (roff) that `docs/man/peershared.8` holds.
    var showManPage = false

    /// Parses the arguments after the program name; `--flag VALUE` and `--flag=VALUE`.
    static func parse(_ arguments: [String]) throws(ConfigError) -> DaemonArguments {
        var result = DaemonArguments()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--help" || argument == "-h" {
                result.showHelp = true
                continue
            }
            if argument == "--version" {
                result.showVersion = true
                continue
            }
            if argument == "--man" {
                result.showManPage = true
                continue
            }
            if argument == "--new-library" {
                result.newLibrary = true
                continue
            }
            if argument == "--restore" || argument.hasPrefix("--restore=") {
                let inline =
                    argument.hasPrefix("--restore=") ? String(argument.dropFirst("--restore=".count)) : nil
                guard let given = inline ?? remaining.popFirst(), !given.isEmpty else {
                    throw .usage("--restore needs a backup directory")
                }
                result.restore = given
                continue
            }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard name == "--config" || flags.contains(where: { $0.name == name }) else {
                throw .usage("unknown option '\(name)'")
            }
            guard let given = value ?? remaining.popFirst() else {
                throw .usage("\(name) needs a value")
            }
            if name == "--config" {
                result.configFile = given
            } else if let flag = flags.first(where: { $0.name == name }) {
                if flag.repeatable, let earlier = result.overrides.firstIndex(where: { $0.key == flag.key }) {
                    let value = result.overrides[earlier].value + "," + given
                    result.overrides[earlier] = Override(flag: name, key: flag.key, value: value)
                } else {
                    result.overrides.append(Override(flag: name, key: flag.key, value: given))
                }
            }
        }
        return result
    }

    static var usage: String {
        var lines = [
            "usage: peershared [--config FILE] [--state-dir DIR] [--listen HOST:PORT]",
            "                  [--advertise HOST:PORT]... [--web-listen HOST:PORT|off]",
            "                  [--control-socket PATH] [--log-level LEVEL]",
            "                  [--new-library] [--restore DIR]",
            "",
            "The PeerShare daemon: keeps the photo library and replicates shared zones with peers.",
            "",
            "options:",
            "  --config FILE              config file (default: $CONFIGURATION_DIRECTORY or",
            "                             ~/.config/peershare/peershared.conf, if it exists)",
        ]
        for flag in flags {
            let left = "  \(flag.name) \(flag.placeholder)"
            lines.append(left.padding(toLength: 29) + flag.help)
        }
        lines.append("  --new-library".padding(toLength: 29) + "start an empty library even if one exists in")
        lines.append("".padding(toLength: 29) + "another known state directory (~/.config/peershare, …)")
        lines.append(
            "  --restore DIR".padding(toLength: 29) + "restore the backup DIR (made by 'peershare backup')")
        lines.append("".padding(toLength: 29) + "into the new or empty state directory, then exit")
        lines.append("  --help".padding(toLength: 29) + "show this help")
        lines.append("  --version".padding(toLength: 29) + "show the version")
        lines.append("")
        lines.append("Flags override the config file. SIGHUP reloads it; SIGTERM stops gracefully.")
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The string followed by spaces up to `length` characters (at least one space).
    func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
