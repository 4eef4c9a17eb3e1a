import ControlProtocol

/// `tag add|toggle|remove|list|delete`.
enum TagCommands {
    static let tagArgument = ArgumentSpec(
        placeholder: "TAG", key: "tag", help: "tag ID or unique prefix, or the tag's name")

    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["tag", "add"],
            summary: "tag a photo (with the zone's tag of that name, or a new one); prints the tag's ID",
            arguments: [
                PhotoCommands.photoArgument,
                ArgumentSpec(placeholder: "NAME", key: "name", help: "the tag's name"),
            ],
            request: .tagAdd, mode: .call(format: { Formatting.text($0["id"]) })),
        CommandSpec(
            path: ["tag", "toggle"], summary: "tag a photo if it lacks the tag, untag it otherwise",
            arguments: [PhotoCommands.photoArgument, tagArgument], request: .tagToggle,
            mode: .call(format: { result in
                let photo = Formatting.shortID(Formatting.text(result["photo"]))
                let tag = Formatting.text(result["name"])
                return result["tagged"] == true
                    ? "tagged \(photo) with \(tag)" : "removed tag \(tag) from \(photo)"
            })),
        CommandSpec(
            path: ["tag", "remove"], summary: "remove a tag from a photo",
            arguments: [PhotoCommands.photoArgument, tagArgument], request: .tagRemove,
            mode: .call(format: { result in
                "removed tag \(Formatting.text(result["name"])) from \(Formatting.shortID(Formatting.text(result["photo"])))"
            })),
        CommandSpec(
            path: ["tag", "list"], summary: "list tags with their photo counts",
            options: [
                OptionSpec(
                    name: "--share", placeholder: "S", key: "share",
                    help: "only this share's tags (ID prefix; 'default' for unshared ones)")
            ],
            request: .tagList, mode: .call(format: list)),
        CommandSpec(
            path: ["tag", "delete"], summary: "delete a tag and remove it from its photos",
            arguments: [tagArgument], request: .tagDelete,
            mode: .call(format: { result in
                "deleted tag \(Formatting.text(result["name"])) (\(Formatting.shortID(Formatting.text(result["id"]))))"
            })),
    ]

    private static func list(_ result: JSON) -> String {
        let tags = result.arrayValue ?? []
        guard !tags.isEmpty else { return "no tags" }
        let rows = tags.map { tag in
            let zone = Formatting.text(tag["zone"])
            return [
                Formatting.shortID(Formatting.text(tag["id"])), Formatting.text(tag["name"]),
                Formatting.text(tag["photo_count"]), zone == "default" ? zone : Formatting.shortID(zone),
            ]
        }
        return Formatting.columns(["ID", "NAME", "PHOTOS", "ZONE"], rows)
    }
}
