import ControlProtocol
import Glibc

/// `peershare photo export PHOTO -`: the photo's data on standard output and nothing else
/// (progress, on a terminal, goes to stderr). The daemon writes files only: it exports into
/// a private spool file, which is copied out and removed.
enum PhotoExportToStdout {
    static func run(_ context: CommandRun) throws(CLIError) -> Int32 {
        guard context.arguments["file"] == "-" else { return try context.asTable() }
        if context.json {
            throw .usage(
                "--json cannot be used with '-': the photo's data is what goes to standard output",
                helpCommand: "peershare photo export")
        }
        let spool = try SpoolFile(near: context.socket, purpose: "export")
        defer { spool.remove() }
        let client = try context.connect()
        let progress = ProgressLine(label: "photo export")
        do {
            var args = context.arguments.values
            args["file"] = .string(spool.path)
            args["progress"] = true
            defer { progress?.clear() }
            _ = try client.call(
                ControlCommand.photoExport.name, args: args, onEvent: progress?.show ?? { _ in })
        } catch {
            throw .client(error)
        }
        try spool.drain(to: 1)
        return 0
    }
}
