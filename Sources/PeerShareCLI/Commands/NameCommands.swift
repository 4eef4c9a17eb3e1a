import ControlProtocol

/// `name set NAME`, `name show`: the person's display name, which everyone it shares with
/// sees; devices are named with `device rename`.
enum NameCommands {
    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["name", "set"], summary: "set your name, shown to the people you share with",
            arguments: [ArgumentSpec(placeholder: "NAME", key: "name", help: "your name (1 to 100 bytes)")],
            request: .nameSet,
            mode: .call(format: { result in
                "your name is now \(Formatting.name(result["person_name"]) ?? "-")"
            })),
        CommandSpec(
            path: ["name", "show"], summary: "show your name and this device's name",
            request: .id,
            mode: .call(format: { result in
                Formatting.table([
                    ("person name", Formatting.name(result["person_name"]) ?? "- (peershare name set NAME)"),
                    ("device name", Formatting.name(result["device_name"]) ?? "-"),
                ])
            })),
    ]
}
