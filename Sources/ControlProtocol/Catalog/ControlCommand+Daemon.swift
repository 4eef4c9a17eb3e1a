/// The daemon's own commands: what it is, what it committed, what happens in it.
extension ControlCommand {
    /// `ping`: checks that the daemon answers.
    public static let ping = ControlCommand("ping")
    /// `id`: this peer's ID.
    public static let id = ControlCommand("id")
    /// `status`: identity, addresses, paths and zones.
    public static let status = ControlCommand("status")
    /// `history`: committed transactions after a token, of one store or both.
    public static let history = ControlCommand(
        "history",
        [
            .optional("since", .integer), .optional("store"), .optional("exclude_author"),
            .optional("limit", .integer),
        ])
    /// `watch`: streams events as they happen, of the given types (or prefixes) only.
    public static let watch = ControlCommand("watch", mode: .stream, [.optional("types", .strings)])

    /// `backup`: writes a consistent backup of the library and identity into a new or empty
    /// directory while the daemon goes on.
    public static let backup = ControlCommand("backup", mode: .progress, [.required("dir", .absolutePath)])

    /// `doctor`: checks addresses, reachability, clocks, paths and modes, ports, disk space
    /// and the service, each finding with its severity and fix.
    public static let doctor = ControlCommand("doctor")

    /// `ui`: a one-time login URL of the local web gallery.
    public static let ui = ControlCommand("ui")

    /// The daemon's own commands; a new one is declared above and listed here.
    public static let daemonCommands: [ControlCommand] = [
        .ping, .id, .status, .history, .watch, .backup, .doctor, .ui,
    ]
}
