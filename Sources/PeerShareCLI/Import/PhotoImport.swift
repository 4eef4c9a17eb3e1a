import ControlProtocol
import Glibc

/// `peershare photo add PATH...`: adds files, the photos under directories (`-r`) and
/// standard input (`-`), one `photo.add` request per file, so the daemon stays simple and
/// one bad file does not stop the others.
///
/// One file prints what `photo add` always printed (the ID, or `{"id"}` with `--json`).
/// Several, or a directory, print each failure on stderr as it happens and a summary at the
/// end (`added 40, skipped 10 (duplicates), failed 0`); with `--json`, one JSON line per
/// file and then the summary's. The exit status is 1 when any file failed.
enum PhotoImport {
    static func run(_ context: CommandRun) throws(CLIError) -> Int32 {
        let arguments = context.arguments
        let operands = arguments["file"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let sources = ImportSources(
            workingDirectory: context.workingDirectory, recursive: arguments["recursive"] == true)
        let items = try sources.items(operands)
        let single = operands.count == 1 && items.count == 1 && items[0].display == operands[0]
        if !single {
            for (key, option) in [("name", "--name"), ("thumbnail", "--thumbnail")]
            where arguments[key] != nil {
                throw .usage(
                    "\(option) is for one photo: give it with one file only",
                    helpCommand: "peershare photo add")
            }
        }
        var base = arguments.values.filter {
            ["tags", "share", "allow_duplicates", "thumbnail"].contains($0.key)
        }
        base["progress"] = true
        let client = try context.connect()
        let progress = ImportProgress(
            label: "photo add", files: items.count, totalBytes: items.reduce(0) { $0 + $1.size })
        if single {
            return try addOne(
                items[0], base: base, name: arguments["name"], client: client, context, progress)
        }
        var summary = ImportSummary()
        for item in items {
            let outcome = try importOne(
                item, base: base, client: client, context: context, progress: progress)
            summary.count(outcome)
            if context.json {
                Output.json(outcome.record(file: item.display))
            } else if case .failed(let error) = outcome {
                progress?.clear()
                Output.err("peershare: cannot add \(item.display): \(error.message)")
            }
        }
        progress?.clear()
        if context.json { Output.json(["summary": summary.json]) } else { Output.out(summary.text) }
        return summary.failed > 0 ? 1 : 0
    }

    /// One file, printed as `photo add` of one file always was; a failure is the command's.
    private static func addOne(
        _ item: ImportItem, base: [String: JSON], name: JSON?, client: ControlClient, _ context: CommandRun,
        _ progress: ImportProgress?
    ) throws(CLIError) -> Int32 {
        var args = base
        if let name { args["name"] = name }
        let result: JSON
        do {
            result = try send(item, args: args, client: client, context: context, progress: progress)
        } catch .client(let error) {
            progress?.clear()
            throw .client(error)
        }
        progress?.clear()
        if context.json {
            Output.json(result)
        } else {
            Output.out(Formatting.text(result["id"]))
            if result["skipped"] == true {
                Output.err(
                    "peershare: \(item.display) is already in the library (photo "
                        + "\(Formatting.shortID(Formatting.text(result["duplicate_of"])))); nothing added "
                        + "(--allow-duplicates adds it again)")
            }
        }
        return 0
    }

    /// One file of several: its outcome, never thrown unless the daemon cannot be reached.
    private static func importOne(
        _ item: ImportItem, base: [String: JSON], client: ControlClient, context: CommandRun,
        progress: ImportProgress?
    ) throws(CLIError) -> ImportOutcome {
        if item.givenTwice {
            progress?.begin(size: 0, knownUpFront: true)
            progress?.finish()
            return .givenTwice
        }
        defer { progress?.finish() }
        do {
            let result = try send(item, args: base, client: client, context: context, progress: progress)
            if result["skipped"] == true { return .duplicate(of: Formatting.text(result["duplicate_of"])) }
            return .added(id: Formatting.text(result["id"]))
        } catch .client(.daemon(let error)) {
            return .failed(error)
        } catch .local(let message) {
            return .failed(ControlError("io_error", message))
        } catch {
            progress?.clear()
            throw error
        }
    }

    /// The `photo.add` request for one file; standard input goes through a spool file.
    private static func send(
        _ item: ImportItem, args: [String: JSON], client: ControlClient, context: CommandRun,
        progress: ImportProgress?
    ) throws(CLIError) -> JSON {
        var args = args
        var spool: SpoolFile?
        defer { spool?.remove() }
        if let path = item.path {
            args["file"] = .string(path)
            progress?.begin(size: item.size, knownUpFront: true)
        } else {
            let file = try SpoolFile(near: context.socket, purpose: "stdin")
            spool = file
            let size = try file.fill(from: 0)
            args["file"] = .string(file.path)
            if args["name"] == nil { args["name"] = .string(stdinName) }
            progress?.begin(size: size, knownUpFront: false)
        }
        do {
            return try client.call(
                ControlCommand.photoAdd.name, args: args, onEvent: progress?.show ?? { _ in })
        } catch {
            throw .client(error)
        }
    }

    /// The name of a photo read from standard input when `--name` gives none.
    static let stdinName = "stdin"
}
