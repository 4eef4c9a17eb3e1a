/// Every `peershare` command, group by group, in the order `--help` lists them.
///
/// A new group is one file in `Commands/` with `static let commands: [CommandSpec]` and one
/// entry here.
enum CommandTable {
    static let all: [CommandSpec] =
        DaemonCommands.commands + PhotoCommands.commands + TagCommands.commands + RatingCommands.commands
        + HistoryCommands.commands + WatchCommands.commands + ShareCommands.commands + PeerCommands.commands
        + DeviceCommands.commands + NameCommands.commands + BackupCommands.commands + DoctorCommands.commands
        + GalleryCommands.commands
        + LocalCommands.commands
}
