import ControlProtocol

/// `backup DIR`: the running daemon's library and identity, copied consistently.
enum BackupCommands {
    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["backup"],
            summary:
                "back up the library and this device's identity into a new or empty directory (keep it private)",
            arguments: [
                ArgumentSpec(
                    placeholder: "DIR", key: "dir",
                    help: "a new or empty directory; restore with 'peershared --restore DIR'")
            ],
            request: .backup,
            mode: .call(format: { result in
                "backed up \(Formatting.count(result["photos"]?.intValue ?? 0, "photo")) and "
                    + "\(Formatting.bytes(result["data_bytes"]?.intValue ?? 0)) of photo data into "
                    + Formatting.text(result["dir"])
                    + ((result["pending_data"]?.intValue ?? 0) > 0
                        ? " (\(result["pending_data"]?.intValue ?? 0) photos' data still to arrive from peers "
                            + "is not in it)" : "")
            }), progressLabel: "backup")
    ]
}
