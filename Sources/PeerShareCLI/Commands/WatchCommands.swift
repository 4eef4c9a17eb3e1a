/// `watch`: print the daemon's events as they happen, until interrupted.
enum WatchCommands {
    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["watch"], summary: "print events as they happen, until interrupted (Ctrl-C)",
            options: [
                OptionSpec(
                    name: "--type", placeholder: "TYPE", key: "types", arity: .repeated,
                    help: "only events of this type or prefix (history, daemon.reloaded); repeatable")
            ],
            request: "watch", mode: .stream(format: Formatting.event))
    ]
}
