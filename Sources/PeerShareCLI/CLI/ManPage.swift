import ControlProtocol
import Support

/// peershare(1), written from the command table by `peershare --man`: every command with
/// its arguments and options, the global options, exit statuses, environment and files.
///
/// `docs/man/peershare.1` is this page as generated; a test checks that it still is.
struct ManPage: Sendable {
    let table: [CommandSpec]

    func render() -> String {
        let globals = GlobalOptionSpec.all.dropLast().map { "[\($0.usage)]" }
        var page = ManPageWriter(
            name: "peershare", section: 1, source: "PeerShare \(PeerShareVersion.string)",
            manual: "PeerShare Manual",
            summary: "drive peershared, the PeerShare photo sync daemon",
            synopsis: (["peershare"] + globals + ["COMMAND", "[ARGS...]"]).joined(separator: " "))
        page.section("description")
        page.paragraph(
            "peershare drives peershared, the PeerShare daemon, through its control socket: it sends one "
                + "command, prints the answer and exits (watch streams events until interrupted). Commands that "
                + "name a photo, tag, share or peer take its ID or a unique prefix of it. help and completion are "
                + "answered without the daemon.")
        page.section("commands")
        for command in table {
            page.subsection(command.name)
            page.raw(ManPageWriter.usage("peershare " + command.synopsis))
            page.paragraph(command.summary)
            for argument in command.arguments {
                page.tagged(ManPageWriter.italic(command.name(of: argument)), argument.help)
            }
            for option in command.options {
                page.tagged(
                    ManPageWriter.usage(
                        option.placeholder.isEmpty ? option.name : "\(option.name) \(option.placeholder)"),
                    option.help + (command.arity(of: option) == .repeated ? " (repeatable)" : ""))
            }
        }
        page.section("global options")
        page.paragraph("Accepted before or after the command.")
        for option in GlobalOptionSpec.all {
            page.tagged(ManPageWriter.usage(option.usage), option.help.joined(separator: " "))
        }
        page.tagged(ManPageWriter.usage("--version"), "print the version and exit")
        page.section("exit status")
        for (status, meaning) in CLIError.exitStatuses {
            page.tagged(ManPageWriter.bold("\(status)"), meaning)
        }
        page.paragraph(
            #"An error is one line on standard error; with --json also {"error": {"code", "message"}} on standard "#
                + "output.")
        page.section("environment")
        page.tagged(ManPageWriter.bold("PEERSHARE_SOCKET"), "the control socket, when --socket is not given")
        page.tagged(
            ManPageWriter.bold("PEERSHARE_TIMEOUT"),
            "seconds to wait for the daemon, when --timeout is not given")
        page.tagged(
            ManPageWriter.bold("XDG_RUNTIME_DIR"),
            "the default control socket is $XDG_RUNTIME_DIR/peershare/peershared.sock, as peershared makes it"
        )
        page.section("files")
        page.tagged(
            ManPageWriter.italic("$XDG_RUNTIME_DIR/peershare/peershared.sock"),
            "the daemon's control socket (without $XDG_RUNTIME_DIR: ~/.local/state/peershare/peershared.sock)"
        )
        page.section("see also")
        page.raw("\\fBpeershared\\fR(8), \\fBsystemctl\\fR(1)")
        return page.text
    }
}
