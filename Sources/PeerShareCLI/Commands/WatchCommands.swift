import ControlProtocol

/// `watch`: print the daemon's events as they happen, until interrupted.
enum WatchCommands {
    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["watch"], summary: "print events as they happen, until interrupted (Ctrl-C)",
            options: [
                OptionSpec(
                    name: "--type", placeholder: "TYPE", key: "types",
                    help: "only events of this type or prefix (history, daemon.reloaded); repeatable")
            ],
            request: .watch, mode: .stream(format: format))
    ]

    /// A history event as `TIME history #3 private local: insert photo 1b2c3d4e, …`; others
    /// as `TIME TYPE key=value …`.
    private static func format(_ event: ControlEvent) -> String {
        guard event.type == "history" else { return Formatting.event(event) }
        let data = event.data
        let changes = (data["changes"]?.arrayValue ?? []).map(HistoryCommands.change).joined(separator: ", ")
        return "\(event.json["time"]?.stringValue ?? "") history #\(Formatting.text(data["token"])) "
            + "\(Formatting.text(data["store"])) \(Formatting.text(data["author"])): \(changes)"
    }
}
