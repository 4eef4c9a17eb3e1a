import ControlProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// `systemd/peershared.service`: a unit systemd accepts without a single warning, whose
/// sandboxing scores at most 2.5, whose documentation is the installed man pages, which
/// does not retry for ever a start that cannot succeed, and which keeps the library in
/// ~/.local/state/peershare on every systemd version.
@Suite(.onOwnThreads) struct SystemdUnitTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let analyzer = "/usr/bin/systemd-analyze"
    static var hasAnalyzer: Bool { FileManager.default.isExecutableFile(atPath: analyzer) }

    /// `systemd-analyze security --offline=yes` exists from systemd 250 on.
    static var canScoreOffline: Bool {
        guard hasAnalyzer, let directory = try? TestDirectory(),
            let help = try? ChildProcess(
                executable: analyzer, arguments: ["--help"],
                environment: DaemonProcess.baseEnvironment(directory),
                directory: directory, label: "help"),
            (try? help.waitForExit()) == 0
        else { return false }
        return help.stdout.contains("--offline")
    }

    static func unit() throws -> String {
        try String(
            contentsOf: repository.appendingPathComponent("systemd/peershared.service"), encoding: .utf8)
    }

    /// The unit with ExecStart's program replaced by the binary this build made (verify
    /// checks that it exists), written into `directory`.
    static func unitWithBuiltDaemon(in directory: TestDirectory) throws -> String {
        let daemon = try Products.path("peershared")
        let rewritten = try unit().split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("ExecStart=%h/.local/bin/peershared")
                ? "ExecStart=" + daemon + line.dropFirst("ExecStart=%h/.local/bin/peershared".count)
                : String(line)
        }.joined(separator: "\n")
        return try directory.write("peershared.service", rewritten)
    }

    /// ExecStart's words, with `%h` standing for `home`.
    static func execStart(home: String) throws -> [String] {
        let line = try #require(try unit().split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        return line.dropFirst("ExecStart=".count).split(separator: " ").map {
            $0.replacingOccurrences(of: "%h", with: home)
        }
    }

    @Test(.enabled(if: hasAnalyzer, "systemd-analyze is not installed"))
    func systemdAnalyzeVerifyReportsNothing() throws {
        let directory = try TestDirectory()
        let path = try Self.unitWithBuiltDaemon(in: directory)
        // verify runs `man` for each Documentation=man: page: install the pages as README does.
        let manual = try directory.makeDirectory("man")
        for (page, section) in [("peershare.1", "man1"), ("peershared.8", "man8")] {
            try FileManager.default.createDirectory(
                atPath: manual + "/" + section, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: Self.repository.appendingPathComponent("docs/man/" + page).path,
                toPath: manual + "/" + section + "/" + page)
        }
        var environment = DaemonProcess.baseEnvironment(directory)
        environment["MANPATH"] = manual
        // Plain verify: `--user` needs a user manager, which these machines do not run.
        let verify = try ChildProcess(
            executable: Self.analyzer, arguments: ["verify", path], environment: environment,
            directory: directory,
            label: "verify")
        let status = try verify.waitForExit()
        // verify exits 0 even for unknown or invalid keys: the output is the verdict.
        #expect(verify.stdout + verify.stderr == "")
        #expect(status == 0)
    }

    @Test(.enabled(if: canScoreOffline, "systemd-analyze security --offline is unavailable here"))
    func theSandboxingScoresAtMostTwoAndAHalf() throws {
        let directory = try TestDirectory()
        let path = try Self.unitWithBuiltDaemon(in: directory)
        // Scored as a user unit; `--user` wants $XDG_RUNTIME_DIR even offline.
        var environment = DaemonProcess.baseEnvironment(directory)
        environment["XDG_RUNTIME_DIR"] = try directory.makeDirectory("runtime")
        let security = try ChildProcess(
            executable: Self.analyzer,
            arguments: ["security", "--user", "--offline=yes", "--no-pager", path],
            environment: environment, directory: directory, label: "security")
        _ = try security.waitForExit()
        let output = security.stdout + security.stderr
        let line = try #require(
            output.split(separator: "\n").first { $0.contains("Overall exposure level for") }, "\(output)")
        // `→ Overall exposure level for peershared.service: 2.3 OK 🙂` (`OK :-)` without UTF-8).
        let verdict = try #require(line.range(of: ".service: ").map { line[$0.upperBound...] }, "\(line)")
        let score = try #require(verdict.split(separator: " ").first.flatMap { Double($0) }, "\(line)")
        #expect(score <= 2.5, "\(line)")
    }

    @Test func theUnitHasTheSettingsTheServiceReliesOn() throws {
        let unit = try Self.unit()
        let lines = Set(unit.split(separator: "\n").map(String.init))
        for expected in [
            "Type=notify", "WatchdogSec=30", "Restart=on-failure", "ExecReload=kill -HUP $MAINPID",
            "RuntimeDirectory=peershare",
            "ExecStart=%h/.local/bin/peershared --state-dir=%h/.local/state/peershare",
            "NoNewPrivileges=yes", "ProtectSystem=full", "CapabilityBoundingSet=",
            "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK",
            "RestartPreventExitStatus=64 69 78",
            "Documentation=man:peershared(8) man:peershare(1)", "StartLimitIntervalSec=300",
            "StartLimitBurst=5",
            "SystemCallFilter=@system-service", "SystemCallFilter=~@privileged @resources",
            "SystemCallErrorNumber=EPERM", "KeyringMode=private",
        ] {
            #expect(lines.contains(expected), "missing \(expected)")
        }
        // A user manager cannot order against the system's network-online.target.
        #expect(!unit.contains("network-online"))
        // StateDirectory= maps to ~/.config on systemd 252: the path is given explicitly.
        #expect(!lines.contains { $0.hasPrefix("StateDirectory") })
        // The daemon reads and writes the files people name (photo add, photo export).
        #expect(!lines.contains { $0.hasPrefix("PrivateTmp=") })
        #expect(!lines.contains { $0.hasPrefix("ProtectHome=") })
        // Every sandboxing directive has its own comment on the line above it.
        let all = unit.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let sandbox = try #require(all.firstIndex(of: "NoNewPrivileges=yes"))
        let end = try #require(all.firstIndex(of: "[Install]"))
        for index in sandbox..<end where all[index].contains("=") {
            #expect(all[index - 1].hasPrefix("# "), "no comment above \(all[index])")
        }
    }

    /// What a systemd user manager gives the service: its home, XDG and runtime variables,
    /// and on systemd 252 a STATE_DIRECTORY under ~/.config for a unit that still had
    /// StateDirectory=peershare.
    static func unitEnvironment(home: String) -> [String: String] {
        [
            "HOME": home, "XDG_RUNTIME_DIR": home + "/run", "RUNTIME_DIRECTORY": home + "/run/peershare",
            "CONFIGURATION_DIRECTORY": home + "/.config/peershare",
            "STATE_DIRECTORY": home + "/.config/peershare",
            "XDG_CONFIG_HOME": home + "/.config",
        ]
    }

    /// Starts the daemon as the unit would (its ExecStart arguments and environment), with
    /// a free port instead of 7733.
    static func startAsTheUnit(
        in directory: TestDirectory, label: String, extra: [String] = []
    ) throws -> (ChildProcess, NotifyListener) {
        let notify = try NotifyListener(path: directory.file("\(label).notify"))
        var environment = unitEnvironment(home: directory.path)
        environment["PATH"] = "/usr/bin:/bin"
        environment["NOTIFY_SOCKET"] = notify.address
        try FileManager.default.createDirectory(
            atPath: directory.path + "/run/peershare", withIntermediateDirectories: true)
        let words = try execStart(home: directory.path)
        let daemon = try ChildProcess(
            executable: try Products.path("peershared"),
            arguments: Array(words.dropFirst()) + ["--listen", "127.0.0.1:0"] + extra,
            environment: environment,
            directory: directory, label: label)
        return (daemon, notify)
    }

    @Test func startedAsTheUnitStartsItTheStateIsInLocalStateWhateverStateDirectorySays() throws {
        let directory = try TestDirectory()
        let (daemon, notify) = try Self.startAsTheUnit(in: directory, label: "unit")
        try notify.next(containing: "READY=1")
        let socket = directory.path + "/run/peershare/peershared.sock"
        let status = try CLI.run(["--json", "--socket", socket, "status"], in: directory)
        #expect(status.status == 0, "\(status)")
        let value = try #require(JSONLine.decode(Data(status.stdout.utf8)))
        let state = directory.path + "/.local/state/peershare"
        #expect(value["state_dir"] == .string(state))
        #expect(FileManager.default.fileExists(atPath: state + "/identity/identity.key"))
        #expect(FileManager.default.fileExists(atPath: state + "/library/private.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/.config/peershare/identity"))
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/.config/peershare/library"))
        daemon.send(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    @Test func aLibraryLeftInConfigByAnOlderUnitIsReportedNotReplaced() throws {
        let directory = try TestDirectory()
        // The library an older unit made on systemd 252, in ~/.config/peershare.
        let old = directory.path + "/.config/peershare"
        let first = try DaemonProcess.startReady(in: directory, stateDirectory: old)
        let id = try first.json("id")
        try first.stop()

        let (refused, _) = try Self.startAsTheUnit(in: directory, label: "refused")
        #expect(try refused.waitForExit() == 78)
        let state = directory.path + "/.local/state/peershare"
        #expect(
            refused.stderr
                == "<3>peershared: found a PeerShare library (identity and photos) in \(old), but the state "
                + "directory \(state) has none: starting would make a new identity and an empty library. To "
                + "keep yours, move \(old)/identity and \(old)/library into \(state) (with peershared "
                + "stopped), or start peershared with --state-dir \(old); to start an empty library in \(state) "
                + "anyway, start it once with --new-library\n")
        #expect(!FileManager.default.fileExists(atPath: state))

        // Moved as the message says, the same identity starts from the new place.
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        for part in ["identity", "library"] {
            try FileManager.default.moveItem(atPath: old + "/" + part, toPath: state + "/" + part)
        }
        let (moved, notify) = try Self.startAsTheUnit(in: directory, label: "moved")
        try notify.next(containing: "READY=1")
        let socket = directory.path + "/run/peershare/peershared.sock"
        let movedID = try CLI.run(["--json", "--socket", socket, "id"], in: directory)
        #expect(JSONLine.decode(Data(movedID.stdout.utf8)) == id)
        moved.send(SIGTERM)
        #expect(try moved.waitForExit() == 0)
    }

    @Test func aLibraryMadeByHandIsReportedToADaemonPointedElsewhereAndNewLibraryOverrides() throws {
        let directory = try TestDirectory()
        // Run by hand first: the XDG default, ~/.local/state/peershare.
        let byHand = directory.path + "/.local/state/peershare"
        let first = try DaemonProcess.startReady(in: directory, stateDirectory: byHand)
        let id = try first.json("id")
        try first.stop()

        // Then an older unit: no --state-dir, STATE_DIRECTORY=~/.config/peershare.
        let config = directory.path + "/.config/peershare"
        let environment = Self.unitEnvironment(home: directory.path).merging(["PATH": "/usr/bin:/bin"]) { $1 }
        let refused = try ChildProcess(
            executable: try Products.path("peershared"), arguments: ["--listen", "127.0.0.1:0"],
            environment: environment, directory: directory, label: "old-unit")
        #expect(try refused.waitForExit() == 78)
        #expect(refused.stderr.contains("found a PeerShare library (identity and photos) in \(byHand), but"))
        #expect(refused.stderr.contains("the state directory \(config) has none"))

        // A state directory outside the known places is a deliberate second library.
        let elsewhere = try DaemonProcess(in: directory, label: "elsewhere")
        try elsewhere.waitUntilReady()
        #expect(try elsewhere.json("id") != id)
        try elsewhere.stop()

        // --new-library starts the empty one anyway, with a new identity, and says so.
        let fresh = try DaemonProcess(
            in: directory, arguments: ["--new-library"], environment: environment, stateDirectory: config,
            label: "fresh")
        try fresh.waitUntilReady()
        #expect(try fresh.json("id") != id)
        try fresh.waitForLogLine(
            "<4>starting a new, empty library although one exists elsewhere (--new-library)",
            containing: "found=\(byHand)")
    }
}
