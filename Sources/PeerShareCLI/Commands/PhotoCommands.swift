import ControlProtocol

/// `photo add|list|show|export|rename|delete`.
enum PhotoCommands {
    static let photoArgument = ArgumentSpec(
        placeholder: "PHOTO", key: "photo", help: "photo ID or unique prefix")

    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["photo", "add"],
            summary:
                "add photos from files, directories (-r) or standard input (-); prints the ID, or a summary",
            arguments: [
                ArgumentSpec(
                    placeholder: "PATH", key: "file",
                    help: "files, directories (with -r), or - for standard input", takesRest: true)
            ],
            options: [
                OptionSpec(
                    name: "--recursive", key: "recursive",
                    help:
                        "add the files in directories and their subdirectories (sorted; hidden names skipped)",
                    short: "-r", local: true),
                OptionSpec(
                    name: "--allow-duplicates", key: "allow_duplicates",
                    help: "add files whose data is already in the library (skipped by default)"),
                OptionSpec(
                    name: "--name", placeholder: "N", key: "name",
                    help: "its name, with one file (default: the file name; 'stdin' for -)"),
                OptionSpec(
                    name: "--thumbnail", placeholder: "FILE", key: "thumbnail",
                    help: "a small preview image (at most max_thumbnail_bytes)"),
                OptionSpec(
                    name: "--tag", placeholder: "NAME", key: "tags",
                    help: "tag it; repeatable"),
                OptionSpec(
                    name: "--share", placeholder: "S", key: "share",
                    help: "add it into this share (ID prefix)"),
            ],
            request: .photoAdd, mode: .call(format: { Formatting.text($0["id"]) }),
            progressLabel: "photo add", run: PhotoImport.run),
        CommandSpec(
            path: ["photo", "list"], summary: "list photos",
            options: [
                OptionSpec(
                    name: "--share", placeholder: "S", key: "share",
                    help: "only this share's photos (ID prefix; 'default' for unshared ones)"),
                OptionSpec(name: "--tag", placeholder: "NAME", key: "tag", help: "only photos with this tag"),
                OptionSpec(
                    name: "--device", placeholder: "D", key: "device",
                    help: "only photos added by this device (ID prefix)"),
                OptionSpec(
                    name: "--limit", placeholder: "N", key: "limit",
                    help: "at most N photos (1 to 1000), oldest first"
                ),
                OptionSpec(
                    name: "--after", placeholder: "PHOTO", key: "after",
                    help: "the photos after this one (the next page of a --limit list)"),
            ],
            request: .photoList, mode: .call(format: PhotoFormatting.list)),
        CommandSpec(
            path: ["photo", "show"], summary: "show a photo with its tags and ratings",
            arguments: [photoArgument],
            request: .photoShow, mode: .call(format: PhotoFormatting.details)),
        CommandSpec(
            path: ["photo", "export"], summary: "copy a photo's full-size data to a file",
            arguments: [
                photoArgument,
                ArgumentSpec(
                    placeholder: "FILE", key: "file",
                    help:
                        "where to write it (a directory: a file named after the photo in it; - for standard output)"
                ),
            ],
            request: .photoExport,
            mode: .call(format: { result in
                "exported \(Formatting.shortID(Formatting.text(result["id"]))) to \(Formatting.text(result["file"])) "
                    + "(\(Formatting.bytes(result["size"]?.intValue ?? 0)))"
            }), progressLabel: "photo export", run: PhotoExportToStdout.run),
        CommandSpec(
            path: ["photo", "rename"], summary: "give a photo a new name",
            arguments: [photoArgument, ArgumentSpec(placeholder: "NAME", key: "name", help: "the new name")],
            request: .photoRename,
            mode: .call(format: { result in
                "renamed \(Formatting.shortID(Formatting.text(result["id"]))) to \(Formatting.text(result["name"]))"
            })),
        CommandSpec(
            path: ["photo", "delete"], summary: "delete a photo with its data, thumbnail and ratings",
            arguments: [photoArgument], request: .photoDelete,
            mode: .call(format: { "deleted photo \(Formatting.shortID(Formatting.text($0["id"])))" })),
    ]
}
