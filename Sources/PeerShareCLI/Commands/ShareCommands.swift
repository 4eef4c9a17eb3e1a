import ControlProtocol

/// `share create|add|invite|permission|remove|stop|leave|revoke|list|show` and `accept`.
enum ShareCommands {
    static let shareArgument = ArgumentSpec(
        placeholder: "SHARE", key: "share", help: "share ID or unique prefix")
    static let peerArgument = ArgumentSpec(
        placeholder: "PERSON_ID", key: "peer",
        help: "the person's ID, or one of its device IDs (a unique prefix for participants)")

    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["share", "create"], summary: "share a photo; prints the share URL to give to people",
            arguments: [PhotoCommands.photoArgument],
            options: [
                OptionSpec(
                    name: "--title", placeholder: "T", key: "title",
                    help: "the share's title (default: photo name)"),
                OptionSpec(
                    name: "--public", placeholder: "P", key: "public",
                    help: "what anyone holding the URL may do: none (default), read-only or read-write"),
            ],
            request: .shareCreate, mode: .call(format: { Formatting.text($0["url"]) })),
        CommandSpec(
            path: ["share", "add"], summary: "add a photo to an existing share",
            arguments: [PhotoCommands.photoArgument, shareArgument], request: .shareAdd,
            mode: .call(format: { result in
                "added \(Formatting.shortID(Formatting.text(result["photo"]))) to share "
                    + Formatting.shortID(Formatting.text(result["share"]))
            })),
        CommandSpec(
            path: ["share", "invite"], summary: "invite a person by the person ID `peershare id` shows them",
            arguments: [shareArgument, peerArgument],
            options: [
                OptionSpec(
                    name: "--permission", placeholder: "P", key: "permission",
                    help: "read-only (default) or read-write")
            ],
            request: .shareInvite, mode: .call(format: participant)),
        CommandSpec(
            path: ["share", "permission"], summary: "change a participant's permission",
            arguments: [
                shareArgument, peerArgument,
                ArgumentSpec(placeholder: "PERMISSION", key: "permission", help: "read-only or read-write"),
            ],
            request: .sharePermission, mode: .call(format: participant)),
        CommandSpec(
            path: ["share", "remove"],
            summary: "remove a participant (its copy is purged at its next contact)",
            arguments: [shareArgument, peerArgument], request: .shareRemove,
            mode: .call(format: participant)),
        CommandSpec(
            path: ["share", "stop"], summary: "stop sharing: every participant's copy is purged",
            arguments: [shareArgument],
            options: [
                OptionSpec(
                    name: "--purge", key: "purge",
                    help: "delete your photos of the share too (default: they return to your library)")
            ],
            request: .shareStop,
            mode: .call(format: { "stopped sharing \(Formatting.shortID(Formatting.text($0["share"])))" })),
        CommandSpec(
            path: ["share", "leave"], summary: "leave a share someone else owns; your copy is purged",
            arguments: [shareArgument], request: .shareLeave,
            mode: .call(format: { "left share \(Formatting.shortID(Formatting.text($0["share"])))" })),
        CommandSpec(
            path: ["share", "revoke"], summary: "revoke a share's URL; prints the new one",
            arguments: [shareArgument], request: .shareRevoke,
            mode: .call(format: { Formatting.text($0["url"]) })),
        CommandSpec(
            path: ["share", "list"], summary: "shares you own or take part in", request: .shareList,
            mode: .call(format: list)),
        CommandSpec(
            path: ["share", "show"],
            summary: "a share's participants, permissions and status (and URL, for its owner)",
            arguments: [shareArgument], request: .shareShow, mode: .call(format: show)),
        CommandSpec(
            path: ["accept"], summary: "join a share by the URL its owner gave you",
            arguments: [
                ArgumentSpec(placeholder: "URL", key: "url", help: "peershare://… as the owner gave it")
            ],
            request: .accept,
            mode: .call(format: { result in
                var line =
                    "joined \"\(Formatting.text(result["title"]))\" (\(Formatting.text(result["permission"]))), share "
                    + Formatting.text(result["share"])
                if let via = result["via"]?.stringValue {
                    line +=
                        "\nthe owner could not be reached: member \(via) admitted you; the owner confirms it when it is back"
                }
                return line
            })),
    ]

    private static func participant(_ result: JSON) -> String {
        "\(member(person: result["person_id"], device: result["peer_id"])): \(Formatting.text(result["permission"])), "
            + Formatting.text(result["status"])
    }

    private static func list(_ result: JSON) -> String {
        let shares = result.arrayValue ?? []
        guard !shares.isEmpty else { return "no shares" }
        return Formatting.columns(
            ["SHARE", "TITLE", "ROLE", "PERMISSION", "PUBLIC", "PARTICIPANTS"],
            shares.map { share in
                [
                    Formatting.shortID(Formatting.text(share["share"])), Formatting.text(share["title"]),
                    Formatting.text(share["role"]) + (share["stopped"] == true ? " (stopped)" : ""),
                    Formatting.text(share["permission"]), Formatting.text(share["public_permission"]),
                    String(share["participants"]?.arrayValue?.count ?? 0),
                ]
            })
    }

    private static func show(_ share: JSON) -> String {
        var lines = [
            "share       \(Formatting.text(share["share"]))",
            "title       \(Formatting.text(share["title"]))",
            "role        \(Formatting.text(share["role"]))\(share["stopped"] == true ? " (stopped)" : "")",
            "owner       \(member(person: share["owner_person_id"], device: share["owner"], all: share["owner_devices"]))",
            "public      \(Formatting.text(share["public_permission"]))",
        ]
        if share["url"] != nil { lines.append("url         \(Formatting.text(share["url"]))") }
        let participants = share["participants"]?.arrayValue ?? []
        lines.append(participants.isEmpty ? "participants none" : "participants")
        for p in participants {
            lines.append(
                "  \(member(person: p["person_id"], device: p["peer_id"], all: p["devices"]))  \(Formatting.text(p["permission"]))  "
                    + Formatting.text(p["status"]))
        }
        return lines.joined(separator: "\n")
    }

    /// "person P (devices D1, D2)" once the person is known (its current devices, else the
    /// device the record is under), else the ID the record is under.
    private static func member(person: JSON?, device: JSON?, all: JSON? = nil) -> String {
        guard let person = person?.stringValue else { return Formatting.text(device) }
        let devices = (all?.arrayValue ?? []).compactMap { $0.stringValue.map { String($0.prefix(7)) } }
        if devices.count > 1 { return "person \(person) (devices \(devices.joined(separator: ", ")))" }
        return "person \(person) (device \(Formatting.text(device).prefix(7)))"
    }
}
