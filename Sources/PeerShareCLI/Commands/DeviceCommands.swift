import ControlProtocol

/// `device link [--name N]`, `device join URL [--name N]`, `device list`,
/// `device rename DEVICE NAME`: a person's devices.
enum DeviceCommands {
    static let nameOption = OptionSpec(
        name: "--name", placeholder: "N", key: "name", help: "the new device's name (default: its host name)")

    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["device", "link"],
            summary: "print a one-time link (10 minutes) that makes a fresh daemon one of your devices",
            options: [nameOption, .qr], request: .deviceLink,
            mode: .call(format: { result in
                Formatting.text(result["url"])
                    + "\n(valid until \(Formatting.text(result["expires_at"])), once; "
                    + "on the new device: peershare device join URL)"
            }), qrCodeOf: "url"),
        CommandSpec(
            path: ["device", "join"],
            summary: "make this fresh daemon one of the devices of the person a link names",
            arguments: [
                ArgumentSpec(placeholder: "URL", key: "url", help: "the link `peershare device link` printed")
            ],
            options: [
                nameOption,
                OptionSpec(
                    name: "--merge", key: "merge",
                    help:
                        "merge this daemon's own unshared photos, tags and ratings into the person's library"),
            ],
            request: .deviceJoin,
            mode: .call(format: { result in
                "this daemon is now a device of person \(Formatting.text(result["person_id"]))\n"
                    + list(result["devices"] ?? [])
            })),
        CommandSpec(
            path: ["device", "list"], summary: "your devices: ID, name, this one, connected, last seen",
            request: .deviceList, mode: .call(format: list)),
        CommandSpec(
            path: ["device", "rename"], summary: "rename one of your devices",
            arguments: [
                ArgumentSpec(placeholder: "DEVICE", key: "device", help: "device ID or unique prefix"),
                ArgumentSpec(placeholder: "NAME", key: "name", help: "its new name"),
            ],
            request: .deviceRename,
            mode: .call(format: { result in
                "renamed \(Formatting.text(result["device_id"]).prefix(15)) to \(Formatting.text(result["name"]))"
            })),
        removeCommand,
    ]

    static let removeCommand = CommandSpec(
        path: ["device", "remove"],
        summary: "remove another of your devices: nobody talks to it any more, and it purges its copy",
        arguments: [ArgumentSpec(placeholder: "DEVICE", key: "device", help: "device ID or unique prefix")],
        request: .deviceRemove,
        mode: .call(format: { result in
            "removed \(Formatting.text(result["device_id"]).prefix(15)); it purges its copy at its next contact"
        }))

    private static func list(_ result: JSON) -> String {
        Formatting.columns(
            ["DEVICE", "NAME", "THIS", "CONNECTED", "LAST SEEN"],
            (result.arrayValue ?? []).map { device in
                [
                    Formatting.text(device["device_id"]).prefix(15).description,
                    Formatting.text(device["name"]),
                    device["this_device"] == true ? "yes" : "", device["connected"] == true ? "yes" : "no",
                    device["last_seen"]?.stringValue ?? "-",
                ]
            })
    }
}
