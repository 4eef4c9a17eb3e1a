import ControlProtocol
import Support

/// peershared(8), written by `peershared --man` from the daemon's own tables: the flags
/// (`DaemonArguments.flags`), every setting with its default (`SettingsTable`), and the
/// exit statuses (`PeerDaemonMain.ExitStatus`).
///
/// `docs/man/peershared.8` is this page as generated; a test checks that it still is.
enum DaemonManPage {
    static func render() -> String {
        let flags = ["[--config FILE]"] + DaemonArguments.flags.map { "[\($0.name) \($0.placeholder)]" }
        var page = ManPageWriter(
            name: "peershared", section: 8, source: "PeerShare \(PeerShareVersion.string)",
            manual: "PeerShare Manual",
            summary: "the PeerShare photo sync daemon",
            synopsis: (["peershared"] + flags + ["[--new-library]"]).joined(separator: " "))
        description(&page)
        options(&page)
        configuration(&page)
        page.section("signals")
        page.tagged(
            ManPageWriter.bold("SIGHUP"), "re-read the config file; settings that need a restart are logged")
        page.tagged(
            ManPageWriter.bold("SIGTERM, SIGINT"),
            "stop gracefully: requests in flight and their transactions finish, peers are closed, the stores close "
                + "and the control socket is removed")
        page.section("exit status")
        for (status, meaning) in PeerDaemonMain.ExitStatus.all {
            page.tagged(ManPageWriter.bold("\(status)"), meaning)
        }
        page.paragraph(
            "The systemd unit lists 64, 69 and 78 in RestartPreventExitStatus=: starting again unchanged would fail "
                + "the same way.")
        environment(&page)
        files(&page)
        page.section("see also")
        page.raw("\\fBpeershare\\fR(1), \\fBsystemctl\\fR(1), \\fBsystemd.exec\\fR(5), \\fBjournalctl\\fR(1)")
        return page.text
    }

    private static func description(_ page: inout ManPageWriter) {
        page.section("description")
        page.paragraph(
            "peershared keeps a PeerShare photo library (photos, tags, ratings, shares) and replicates the zones "
                + "it shares with other peers over mutually authenticated TLS. peershare(1) drives it through a "
                + "control socket (a Unix socket, mode 0600, same user only).")
        page.paragraph(
            "It is meant to run as a systemd user service (systemd/peershared.service): it sends READY=1 once its "
                + "stores are open and its control socket accepts connections, WATCHDOG=1 when WatchdogSec= is set, "
                + "and logs to standard error with journald priority prefixes.")
    }

    private static func options(_ page: inout ManPageWriter) {
        page.section("options")
        page.paragraph("Flags override the config file; --flag=VALUE and --flag VALUE are the same.")
        page.tagged(
            ManPageWriter.usage("--config FILE"),
            "the config file (default: $CONFIGURATION_DIRECTORY/peershared.conf, else "
                + "~/.config/peershare/peershared.conf, read only when it exists)")
        for flag in DaemonArguments.flags {
            page.tagged(
                ManPageWriter.usage("\(flag.name) \(flag.placeholder)"),
                "\(flag.help) (the \(flag.key) setting)")
        }
        page.tagged(
            ManPageWriter.usage("--new-library"),
            "start an empty library even if one exists in another known state directory (~/.config/peershare, …)"
        )
        page.tagged(ManPageWriter.usage("--help"), "print the usage and exit")
        page.tagged(ManPageWriter.usage("--version"), "print the version and exit")
        page.tagged(ManPageWriter.usage("--man"), "print this manual page (roff) and exit")
    }

    private static func configuration(_ page: inout ManPageWriter) {
        page.section("configuration")
        page.paragraph(
            "The config file has one key = value per line; lines starting with # are comments. Byte counts take an "
                + "optional binary unit (65536, 64KiB, 16MiB), durations a unit (500ms, 10s, 2m), paths are absolute "
                + "or start with ~/. config/peershared.conf in the source tree explains each setting. The settings, "
                + "with their defaults:")
        for setting in SettingsTable.all {
            page.tagged(
                ManPageWriter.bold(setting.key) + " = " + ManPageWriter.italic(setting.defaultValue),
                setting.allowed)
        }
    }

    private static func environment(_ page: inout ManPageWriter) {
        page.section("environment")
        let variables = [
            (
                "STATE_DIRECTORY",
                "the state directory, when state_dir is not set (systemd sets it for StateDirectory=)"
            ),
            (
                "XDG_STATE_HOME",
                "else the state directory is $XDG_STATE_HOME/peershare, else ~/.local/state/peershare"
            ),
            ("RUNTIME_DIRECTORY", "the control socket's directory, when control_socket is not set"),
            ("XDG_RUNTIME_DIR", "else the control socket is $XDG_RUNTIME_DIR/peershare/peershared.sock"),
            ("CONFIGURATION_DIRECTORY", "the config file's directory, when --config is not given"),
            ("XDG_CONFIG_HOME", "else the config file is $XDG_CONFIG_HOME/peershare/peershared.conf"),
            (
                "NOTIFY_SOCKET",
                "where READY=1, RELOADING=1, STOPPING=1, STATUS= and WATCHDOG=1 go (sd_notify)"
            ),
            ("WATCHDOG_USEC", "the watchdog interval systemd expects WATCHDOG=1 within"),
        ]
        for (name, meaning) in variables {
            page.tagged(ManPageWriter.bold(name), meaning)
        }
    }

    private static func files(_ page: inout ManPageWriter) {
        page.section("files")
        let files = [
            ("~/.config/peershare/peershared.conf", "the config file"),
            ("~/.local/state/peershare/identity/", "the peer's key and certificate (mode 0600)"),
            ("~/.local/state/peershare/library/", "the stores (SQLite) and photo data"),
            ("~/.local/state/peershare/peershared.lock", "held while a daemon uses the state directory"),
            ("$XDG_RUNTIME_DIR/peershare/peershared.sock", "the control socket"),
            ("~/.config/systemd/user/peershared.service", "the systemd user unit, as README installs it"),
        ]
        for (path, meaning) in files {
            page.tagged(ManPageWriter.italic(path), meaning)
        }
    }
}
