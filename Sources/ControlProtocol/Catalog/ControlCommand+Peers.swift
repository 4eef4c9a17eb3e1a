/// Replication with the other daemons.
extension ControlCommand {
    /// `peers`: known peers, connected or not, with traffic and sync state.
    public static let peers = ControlCommand("peers")
    /// `sync`: syncs now; with `wait`, answers once everything is in sync (or `timeout`
    /// seconds have passed).
    public static let sync = ControlCommand(
        "sync", [.optional("wait", .boolean), .optional("timeout", .integer)])
    /// `pause`: pauses replication with all peers, or one.
    public static let pause = ControlCommand("pause", [.optional("peer")])
    /// `resume`: resumes replication with all peers, or one.
    public static let resume = ControlCommand("resume", [.optional("peer")])

    /// The replication commands; a new one is declared above and listed here.
    public static let peerCommands: [ControlCommand] = [
        .peers, .sync, .pause, .resume,
    ]
}
