import ControlProtocol
import Glibc

/// `ui`: the web gallery's login link, printed and, in a graphical session's terminal,
/// opened in the browser.
enum GalleryCommands {
    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["ui"],
            summary: "open the web gallery: print its one-time login link (and open a browser, in a desktop)",
            request: .ui, mode: .call(format: { Formatting.text($0["url"]) }), run: run)
    ]

    private static func run(_ context: CommandRun) throws(CLIError) -> Int32 {
        let status = try context.asTable()
        guard status == 0, !context.json, isatty(1) == 1, BrowserOpener.hasDesktop else { return status }
        // The link works once: a second one, for the browser, leaves the printed one usable.
        let client = try context.connect()
        do {
            if let url = try client.call(ControlCommand.ui.name)["url"]?.stringValue {
                BrowserOpener.open(url)
            }
        } catch {
            throw .client(error)
        }
        return 0
    }
}

/// Starts the desktop's browser on a URL, detached, when there is a desktop.
enum BrowserOpener {
    /// Whether a graphical session is there to show a browser in.
    static var hasDesktop: Bool {
        getenv("DISPLAY") != nil || getenv("WAYLAND_DISPLAY") != nil
    }

    /// Runs `xdg-open URL` without waiting; a missing xdg-open changes nothing (the link is
    /// printed).
    static func open(_ url: String) {
        var pid: pid_t = 0
        let arguments = ["xdg-open", url]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        _ = posix_spawnp(&pid, "xdg-open", &actions, nil, &argv, environ)
    }
}
