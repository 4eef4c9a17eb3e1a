import ControlProtocol

/// `status`, `id`, `ping`: what the daemon is.
enum DaemonCommands {
    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["status"], summary: "show the daemon's identity, addresses, paths and zones",
            request: "status", mode: .call(format: formatStatus)),
        CommandSpec(
            path: ["id"], summary: "print this peer's ID, to give to people who share with you",
            request: "id", mode: .call(format: { Formatting.text($0["peer_id"]) })),
        CommandSpec(
            path: ["ping"], summary: "check that the daemon answers",
            request: "ping", mode: .call(format: { _ in "pong" })),
    ]

    private static func formatStatus(_ result: JSON) -> String {
        let zones = result["zones"]?.arrayValue ?? []
        return Formatting.table([
            ("peer ID", Formatting.text(result["peer_id"])),
            ("listen", Formatting.text(result["listen"])),
            ("advertise", Formatting.text(result["advertise"])),
            ("control socket", Formatting.text(result["control_socket"])),
            ("state dir", Formatting.text(result["state_dir"])),
            ("pid", Formatting.text(result["pid"])),
            ("uptime", Formatting.duration(seconds: result["uptime"]?.doubleValue ?? 0)),
            ("log level", Formatting.text(result["log_level"])),
            ("version", Formatting.text(result["version"])),
            ("zones", zones.isEmpty ? "none" : zones.map { Formatting.text($0) }.joined(separator: ", ")),
        ])
    }
}
