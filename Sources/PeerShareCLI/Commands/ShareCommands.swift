import ControlProtocol

/// `share create|add|set|invite|permission|remove|stop|leave|revoke|list|show|approve|deny|keep|dismiss`
/// and `accept`.
enum ShareCommands {
    static let shareArgument = ArgumentSpec(
        placeholder: "SHARE", key: "share", help: "share ID or unique prefix")
    static let peerArgument = ArgumentSpec(
        placeholder: "PERSON_ID", key: "peer",
        help: "the person's ID, or one of its device IDs (a unique prefix for participants)")

    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["share", "create"],
            summary: "share a photo; prints the share ID and the URL to give to people",
            arguments: [PhotoCommands.photoArgument],
            options: [
                OptionSpec(
                    name: "--title", placeholder: "T", key: "title",
                    help: "the share's title (default: photo name)"),
                OptionSpec(
                    name: "--public", placeholder: "P", key: "public",
                    help: "what anyone holding the URL may do: none (default), read-only or read-write"),
                .qr,
            ],
            request: .shareCreate,
            mode: .call(format: {
                "share \(Formatting.text($0["share"]))\nurl   \(Formatting.text($0["url"]))"
            }), qrCodeOf: "url"),
        CommandSpec(
            path: ["share", "add"], summary: "add a photo to an existing share",
            arguments: [PhotoCommands.photoArgument, shareArgument], request: .shareAdd,
            mode: .call(format: { result in
                "added \(Formatting.shortID(Formatting.text(result["photo"]))) to share "
                    + Formatting.shortID(Formatting.text(result["share"]))
            })),
        CommandSpec(
            path: ["share", "set"], summary: "change a share's title or what anyone holding its URL may do",
            arguments: [shareArgument],
            options: [
                OptionSpec(name: "--title", placeholder: "T", key: "title", help: "its new title"),
                OptionSpec(
                    name: "--public", placeholder: "P", key: "public",
                    help: "what anyone holding the URL may do: none, read-only or read-write"),
            ],
            request: .shareSet, mode: .call(format: show)),
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
            path: ["share", "approve"],
            summary: "let in a device that asked to join your private share (share show lists requests)",
            arguments: [
                shareArgument,
                ArgumentSpec(
                    placeholder: "PEER_ID", key: "peer",
                    help: "the asking device's or person's ID (a unique prefix)"),
            ],
            options: [
                OptionSpec(
                    name: "--permission", placeholder: "P", key: "permission",
                    help: "read-only (default) or read-write")
            ],
            request: .shareApprove,
            mode: .call(format: { result in
                "approved \(member(person: result["person_id"], device: result["peer_id"])) "
                    + "(\(Formatting.text(result["permission"]))): it joins when it accepts the URL again"
            })),
        CommandSpec(
            path: ["share", "deny"], summary: "decline a request to join your private share",
            arguments: [
                shareArgument,
                ArgumentSpec(
                    placeholder: "PEER_ID", key: "peer",
                    help: "the asking device's or person's ID (a unique prefix)"),
            ],
            request: .shareDeny,
            mode: .call(format: { "denied \(member(person: $0["person_id"], device: $0["peer_id"]))" })),
        CommandSpec(
            path: ["share", "keep"],
            summary: "copy a share's photos into your own library (before leaving it)",
            arguments: [shareArgument], request: .shareKeep,
            mode: .call(format: { result in
                let kept = result["kept"]?.arrayValue?.count ?? 0
                let missing = result["without_data"]?.arrayValue?.count ?? 0
                return
                    "kept \(kept) photo\(kept == 1 ? "" : "s") of share \(Formatting.shortID(Formatting.text(result["share"])))"
                    + " in your library"
                    + (missing > 0 ? "; \(missing) not copied: their data has not arrived yet" : "")
            })),
        CommandSpec(
            path: ["share", "dismiss"], summary: "stop listing a share that ended for you",
            arguments: [shareArgument], request: .shareDismiss,
            mode: .call(format: { "dismissed share \(Formatting.shortID(Formatting.text($0["share"])))" })),
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
        let ended = shares.filter { $0["ended"] != nil }.count
        let hint =
            ended == 0
            ? ""
            : "\n\(ended) share\(ended == 1 ? "" : "s") ended for you: peershare share show SHARE says why, "
                + "peershare share dismiss SHARE stops listing it"
        return Formatting.columns(
            ["SHARE", "TITLE", "ROLE", "PERMISSION", "PUBLIC", "PARTICIPANTS"],
            shares.map { share in
                [
                    Formatting.shortID(Formatting.text(share["share"])), Formatting.text(share["title"]),
                    Formatting.text(share["role"]) + status(share),
                    Formatting.text(share["permission"]), Formatting.text(share["public_permission"]),
                    String(share["participants"]?.arrayValue?.count ?? 0),
                ]
            }) + hint
    }

    /// " (stopped)", " (ended: removed)" or nothing, after the role.
    private static func status(_ share: JSON) -> String {
        if let reason = share["ended"]?["reason"]?.stringValue { return " (ended: \(reason))" }
        return share["stopped"] == true ? " (stopped)" : ""
    }

    private static func show(_ share: JSON) -> String {
        var lines = [
            "share       \(Formatting.text(share["share"]))",
            "title       \(Formatting.text(share["title"]))",
            "role        \(Formatting.text(share["role"]))\(status(share))",
            "owner       \(member(person: share["owner_person_id"], device: share["owner"], all: share["owner_devices"], names: (share["owner_person_name"], share["owner_device_name"])))",
            "public      \(Formatting.text(share["public_permission"]))",
        ]
        if share["url"] != nil { lines.append("url         \(Formatting.text(share["url"]))") }
        if let ended = share["ended"] {
            lines.append("ended       \(Formatting.text(ended["at"])): \(Formatting.text(ended["message"]))")
            lines.append(
                "            (peershare share dismiss \(Formatting.shortID(Formatting.text(share["share"]))) stops listing it)"
            )
            return lines.joined(separator: "\n")
        }
        let requests = share["requests"]?.arrayValue ?? []
        if !requests.isEmpty {
            lines.append("requests to join (peershare share approve|deny SHARE PEER_ID)")
            for r in requests {
                lines.append(
                    "  \(member(person: r["person_id"], device: r["peer_id"]))  asked \(Formatting.text(r["requested_at"]))"
                )
            }
        }
        let participants = share["participants"]?.arrayValue ?? []
        lines.append(participants.isEmpty ? "participants none" : "participants")
        for p in participants {
            lines.append(
                "  \(member(person: p["person_id"], device: p["peer_id"], all: p["devices"], names: (p["person_name"], p["device_name"])))  \(Formatting.text(p["permission"]))  "
                    + Formatting.text(p["status"]))
        }
        return lines.joined(separator: "\n")
    }

    /// "person P (devices D1, D2)" once the person is known (its current devices, else the
    /// device the record is under), else the ID the record is under; with the names its list
    /// gives, "Bob (person P, device D \"laptop\")".
    private static func member(
        person: JSON?, device: JSON?, all: JSON? = nil, names: (person: JSON?, device: JSON?) = (nil, nil)
    ) -> String {
        let deviceName = Formatting.name(names.device).map { " \"\($0)\"" } ?? ""
        guard let person = person?.stringValue else { return Formatting.text(device) + deviceName }
        let devices = (all?.arrayValue ?? []).compactMap { $0.stringValue.map { String($0.prefix(7)) } }
        let shown =
            devices.count > 1
            ? "devices \(devices.joined(separator: ", "))"
            : "device \(Formatting.text(device).prefix(7))\(deviceName)"
        guard let name = Formatting.name(names.person) else { return "person \(person) (\(shown))" }
        return "\(name) (person \(person), \(shown))"
    }
}
