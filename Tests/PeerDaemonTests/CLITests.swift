import ControlProtocol
import Foundation
import TestSupport
import Testing

/// The real `peershare`: exit statuses, exact error text, `--json` shapes, help pages.
@Suite(.onOwnThreads) struct CLITests {
    static let unreachable =
        "cannot reach peershared at %@: is it running? start it with 'systemctl --user start peershared' "
        + "(or run 'peershared'), or pass --socket PATH if it listens elsewhere"

    @Test func aDaemonThatIsNotRunningIsReportedWithHowToStartIt() throws {
        let directory = try TestDirectory()
        let socket = directory.file("nobody.sock")
        let message = Self.unreachable.replacingOccurrences(of: "%@", with: socket)
        let plain = try CLI.run(["--socket", socket, "status"], in: directory)
        #expect(plain.status == 3)
        #expect(plain.stdout == "")
        #expect(plain.stderr == "peershare: \(message)\n")

        let json = try CLI.run(["status", "--json", "--socket", socket], in: directory)
        #expect(json.status == 3)
        #expect(
            JSONLine.decode(Data(json.stdout.utf8))
                == ["error": ["code": "daemon_unreachable", "message": .string(message)]])
        #expect(json.stderr == "peershare: \(message)\n")
    }

    @Test func theSocketComesFromTheEnvironmentOrTheXDGDefault() throws {
        let directory = try TestDirectory()
        let fromVariable = try CLI.run(
            ["id"], in: directory, environment: ["PEERSHARE_SOCKET": directory.file("v.sock")])
        #expect(fromVariable.stderr.contains("cannot reach peershared at \(directory.file("v.sock")):"))
        let fromXDG = try CLI.run(
            ["id"], in: directory, environment: ["XDG_RUNTIME_DIR": directory.file("run")])
        #expect(fromXDG.stderr.contains("at \(directory.file("run"))/peershare/peershared.sock:"))
        let fromHome = try CLI.run(["id"], in: directory)
        #expect(fromHome.stderr.contains("at \(directory.path)/.local/state/peershare/peershared.sock:"))
    }

    @Test func theDaemonAndTheCLIAgreeOnTheDefaultSocket() throws {
        let directory = try TestDirectory()
        let runtime = directory.file("run")
        let environment = ["XDG_RUNTIME_DIR": runtime, "XDG_STATE_HOME": directory.file("xdg-state")]
        let notify = try NotifyListener(path: directory.file("default.notify"))
        var daemonEnvironment = DaemonProcess.baseEnvironment(directory).merging(environment) { _, given in
            given
        }
        daemonEnvironment["NOTIFY_SOCKET"] = notify.address
        let daemon = try ChildProcess(
            executable: try Products.path("peershared"), arguments: ["--listen", "127.0.0.1:0"],
            environment: daemonEnvironment, directory: directory, label: "default")
        try notify.next(containing: "READY=1")
        let status = try CLI.run(["--json", "status"], in: directory, environment: environment)
        #expect(status.status == 0)
        let value = JSONLine.decode(Data(status.stdout.utf8))
        #expect(value?["control_socket"] == .string(runtime + "/peershare/peershared.sock"))
        #expect(value?["state_dir"] == .string(directory.file("xdg-state") + "/peershare"))
        daemon.send(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    @Test func humanOutputOfIdAndStatus() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let peerID = try #require(try daemon.json("id")["peer_id"]?.stringValue)
        let personID = try #require(try daemon.json("id")["person_id"]?.stringValue)
        let id = try daemon.cli("id")
        #expect(id.status == 0)
        let deviceName = try #require(try daemon.json("id")["device_name"]?.stringValue)
        #expect(
            id.stdout
                == "person ID    \(personID)\ndevice ID    \(peerID)\nperson name  -\ndevice name  \(deviceName)\n"
        )
        let status = try daemon.cli("status")
        #expect(status.status == 0)
        #expect(
            status.stdout.hasPrefix(
                "peer ID         \(peerID)\nperson ID       \(personID)\nlisten          127.0.0.1:"))
        #expect(status.stdout.contains("\ncontrol socket  \(daemon.socketPath)\n"))
        #expect(
            status.stdout.hasSuffix(
                "\nphotos          0\ntags            0\nzones           default (private, owner): 0 photos, 0 tags\n"
            ))
        #expect(try daemon.cli("ping").stdout == "pong\n")
    }

    @Test(arguments: [
        (
            ["frob"],
            "unknown command 'frob': the commands are accept, backup, completion, device, doctor, help, history, id, name, pause, peers, "
                + "photo, ping, rate, rating, resume, share, status, sync, tag, ui, watch (see 'peershare --help')"
        ),
        (["shre", "list"], "unknown command 'shre': did you mean 'share'? (see 'peershare --help')"),
        (
            ["share", "lst"],
            "unknown command 'share lst': did you mean 'share list'? (see 'peershare share --help')"
        ),
        (
            ["photo", "list", "--tga", "x"],
            "unknown option '--tga' for 'photo list': did you mean '--tag'? (see 'peershare photo list --help')"
        ),
        (
            ["status", "--jsn"],
            "unknown option '--jsn' for 'status': did you mean '--json'? (see 'peershare status --help')"
        ),
        (["--jsn", "status"], "unknown option '--jsn': did you mean '--json'? (see 'peershare --help')"),
        (["help", "shre"], "unknown command 'shre': did you mean 'share'? (see 'peershare --help')"),
        (
            ["help", "share", "crate"],
            "unknown command 'share crate': did you mean 'share create'? (see 'peershare share --help')"
        ),
        ([], "missing command (see 'peershare --help')"),
        (["status", "extra"], "unexpected argument 'extra' (see 'peershare status --help')"),
        (["watch", "--colour"], "unknown option '--colour' for 'watch' (see 'peershare watch --help')"),
        (["watch", "--type"], "--type needs TYPE (see 'peershare watch --help')"),
        (["--socket"], "--socket needs a PATH (see 'peershare --help')"),
        (
            ["photo"],
            "'photo' needs a command: photo commands are add, list, show, export, rename, delete "
                + "(see 'peershare photo --help')"
        ),
        (["photo", "add"], "'photo add' needs PATH... (see 'peershare photo add --help')"),
        (["rate", "abc", "x"], "VALUE must be a whole number, not 'x' (see 'peershare rate --help')"),
        (
            ["history", "--since", "soon"],
            "--since must be a whole number, not 'soon' (see 'peershare history --help')"
        ),
        (["tag", "add", "abc"], "'tag add' needs NAME (see 'peershare tag add --help')"),
    ])
    func usageErrorsExitTwoWithOneLine(arguments: [String], message: String) throws {
        let directory = try TestDirectory()
        let result = try CLI.run(arguments, in: directory)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "peershare: \(message)\n")
        let json = try CLI.run(["--json"] + arguments, in: directory)
        #expect(
            JSONLine.decode(Data(json.stdout.utf8)) == [
                "error": ["code": "usage", "message": .string(message)]
            ])
    }

    @Test(arguments: [
        "status", "id", "ping", "watch", "photo add", "photo list", "photo show", "photo export",
        "photo rename",
        "photo delete", "tag add", "tag toggle", "tag remove", "tag list", "tag delete", "rate",
        "rating list",
        "rating delete", "history",
    ])
    func everyCommandHasHelp(command: String) throws {
        let directory = try TestDirectory()
        let result = try CLI.run(command.split(separator: " ").map(String.init) + ["--help"], in: directory)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("usage: peershare \(command)"))
        #expect(result.stdout.contains("--socket PATH"))
        #expect(result.stderr == "")
    }

    @Test(arguments: [[], ["share"], ["share", "create"], ["help"], ["completion"], ["photo", "add"]])
    func theHelpCommandPrintsWhatDashDashHelpPrints(topic: [String]) throws {
        let directory = try TestDirectory()
        let help = try CLI.run(["help"] + topic, in: directory)
        let dashDash = try CLI.run(topic + ["--help"], in: directory)
        #expect(help.status == 0)
        #expect(help.stderr == "")
        #expect(help.stdout == dashDash.stdout)
        #expect(help.stdout.hasPrefix("usage: peershare"))
    }

    @Test func topLevelHelpListsEveryCommand() throws {
        let directory = try TestDirectory()
        let result = try CLI.run(["--help"], in: directory)
        #expect(result.status == 0)
        #expect(
            result.stdout.hasPrefix(
                "usage: peershare [--socket PATH] [--json] [--timeout SECONDS] [--author NAME] COMMAND [ARGS...]\n"
            ))
        #expect(result.stdout.contains("\n  --timeout SECONDS\n"))
        for command in [
            "status", "id", "ping", "watch", "photo add", "tag toggle", "rate", "rating list", "history",
        ] {
            #expect(result.stdout.contains("\n  \(command) "))
        }
    }

    @Test func aBadTimeoutIsAUsageError() throws {
        let directory = try TestDirectory()
        let flag = try CLI.run(["--timeout", "0", "ping"], in: directory)
        #expect(flag.status == 2)
        #expect(
            flag.stderr
                == "peershare: --timeout must be a whole number of seconds, at least 1, not '0' "
                + "(see 'peershare --help')\n")
        let variable = try CLI.run(["ping"], in: directory, environment: ["PEERSHARE_TIMEOUT": "soon"])
        #expect(variable.status == 2)
        #expect(
            variable.stderr
                == "peershare: PEERSHARE_TIMEOUT must be a whole number of seconds, at least 1, not 'soon' "
                + "(see 'peershare --help')\n")
    }

    @Test func versionsMatch() throws {
        let directory = try TestDirectory()
        let cli = try CLI.run(["--version"], in: directory)
        #expect(cli.stdout == "peershare \(PeerShareVersion.string)\n")
        let daemon = try ChildProcess(
            executable: try Products.path("peershared"), arguments: ["--version"],
            environment: DaemonProcess.baseEnvironment(directory), directory: directory, label: "version")
        #expect(try daemon.waitForExit() == 0)
        #expect(daemon.stdout == "peershared \(PeerShareVersion.string)\n")
    }
}
