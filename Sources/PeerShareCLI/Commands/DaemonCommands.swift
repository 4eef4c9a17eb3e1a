import ControlProtocol

/// `status`, `id`, `ping`: what the daemon is.
enum DaemonCommands {
    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["status"], summary: "show the daemon's identity, addresses, paths and zones",
            request: .status, mode: .call(format: formatStatus)),
        CommandSpec(
            path: ["id"],
            summary: "print your person ID (give it to people who share with you) and this device's ID",
            request: .id,
            mode: .call(format: { result in
                Formatting.table([
                    ("person ID", Formatting.text(result["person_id"])),
                    ("device ID", Formatting.text(result["peer_id"])),
                    ("person name", Formatting.name(result["person_name"]) ?? "-"),
                    ("device name", Formatting.name(result["device_name"]) ?? "-"),
                ])
            })),
        CommandSpec(
            path: ["ping"], summary: "check that the daemon answers",
            request: .ping, mode: .call(format: { _ in "pong" })),
    ]

    private static func formatStatus(_ result: JSON) -> String {
        let zones = result["zones"]?.arrayValue ?? []
        return Formatting.table([
            ("peer ID", Formatting.text(result["peer_id"])),
            ("person ID", Formatting.text(result["person_id"])),
            ("listen", Formatting.text(result["listen"])),
            ("advertise", advertised(result)),
            ("names", Formatting.who(person: result["person_name"], device: result["device_name"])),
            ("control socket", Formatting.text(result["control_socket"])),
            ("state dir", Formatting.text(result["state_dir"])),
            ("pid", Formatting.text(result["pid"])),
            ("uptime", Formatting.duration(seconds: result["uptime_seconds"]?.doubleValue ?? 0)),
            ("log level", Formatting.text(result["log_level"])),
            ("version", Formatting.text(result["version"])),
            ("photos", Formatting.text(result["photos"])),
            ("tags", Formatting.text(result["tags"])),
            ("zones", zones.isEmpty ? "none" : zones.map(formatZone).joined(separator: "\n" + zoneIndent)),
        ])
    }

    /// Every advertised address, or what to do when there is none.
    private static func advertised(_ result: JSON) -> String {
        let all = (result["advertise_all"]?.arrayValue ?? []).compactMap(\.stringValue)
        return all.isEmpty ? "none: set advertise = HOST:PORT to share" : all.joined(separator: ", ")
    }

    /// Continuation lines of the zones row line up under its first value.
    private static let zoneIndent = String(repeating: " ", count: "control socket".count + 2)

    /// `default (private, owner): 2 photos, 1 tag` or `1b2c3d4e "Trip" (private, owner): …`.
    private static func formatZone(_ zone: JSON) -> String {
        let id = zone["id"]?.stringValue ?? "?"
        var name = id == "default" ? id : Formatting.shortID(id)
        if let title = zone["title"]?.stringValue { name += " \"\(title)\"" }
        let store = Formatting.text(zone["store"])
        let role = Formatting.text(zone["role"])
        let photos = Formatting.count(zone["photos"]?.intValue ?? 0, "photo")
        let tags = Formatting.count(zone["tags"]?.intValue ?? 0, "tag")
        return "\(name) (\(store), \(role)): \(photos), \(tags)"
    }
}
