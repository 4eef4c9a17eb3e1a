/// An option every command takes (`--socket PATH`, `--json`, …), as `--help`, completion
/// scripts and the manual page describe it; `CommandLineParser.parse` reads them.
struct GlobalOptionSpec: Sendable {
    let name: String
    var placeholder = ""
    /// Its description, in the lines `--help` prints.
    let help: [String]

    static let all: [GlobalOptionSpec] = [
        GlobalOptionSpec(
            name: "--socket", placeholder: "PATH",
            help: [
                "the daemon's control socket (default: $PEERSHARE_SOCKET, else",
                "$XDG_RUNTIME_DIR/peershare/peershared.sock, as peershared uses)",
            ]),
        GlobalOptionSpec(
            name: "--json",
            help: [#"print one JSON value on stdout (errors: {"error": {"code", "message"}})"#]),
        GlobalOptionSpec(
            name: "--timeout", placeholder: "SECONDS",
            help: [
                "how long to wait for the daemon (default: $PEERSHARE_TIMEOUT, else 30);",
                "for sync --wait, how long to wait for sync (default 60)",
            ]),
        GlobalOptionSpec(
            name: "--author", placeholder: "NAME",
            help: [
                "name this client: history records its changes as local:NAME, and",
                "history --exclude-author NAME leaves them out (default: $PEERSHARE_AUTHOR)",
            ]),
        GlobalOptionSpec(name: "--help", help: ["show help for peershare, a command group, or a command"]),
    ]

    /// `--socket PATH`, as a usage line or a help page's left column shows it.
    var usage: String { placeholder.isEmpty ? name : "\(name) \(placeholder)" }
}
