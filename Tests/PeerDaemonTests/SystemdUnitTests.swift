import Foundation
import Testing

/// `systemd/peershared.service` is a unit systemd accepts without a single warning.
@Suite struct SystemdUnitTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let verifier = "/usr/bin/systemd-analyze"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: verifier)))
    func systemdAnalyzeVerifyReportsNothing() throws {
        let directory = try TestDirectory()
        let unit = try String(
            contentsOf: Self.repository.appendingPathComponent("systemd/peershared.service"), encoding: .utf8)
        // verify checks that ExecStart exists: point it at the binary this build made.
        let daemon = try Products.path("peershared")
        let rewritten = unit.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("ExecStart=") ? "ExecStart=\(daemon)" : String(line)
        }.joined(separator: "\n")
        let path = try directory.write("peershared.service", rewritten)
        // Plain verify: `--user` needs a user manager, which these machines do not run.
        let verify = try ChildProcess(
            executable: Self.verifier, arguments: ["verify", path],
            environment: DaemonProcess.baseEnvironment(directory), directory: directory, label: "verify")
        let status = try verify.waitForExit()
        // verify exits 0 even for unknown or invalid keys: the output is the verdict.
        #expect(verify.stdout + verify.stderr == "")
        #expect(status == 0)
    }

    @Test func theUnitHasTheSettingsTheServiceReliesOn() throws {
        let unit = try String(
            contentsOf: Self.repository.appendingPathComponent("systemd/peershared.service"), encoding: .utf8)
        let lines = Set(unit.split(separator: "\n").map(String.init))
        for expected in [
            "Type=notify", "WatchdogSec=30", "Restart=on-failure", "ExecReload=kill -HUP $MAINPID",
            "StateDirectory=peershare", "RuntimeDirectory=peershare", "ExecStart=%h/.local/bin/peershared",
            "NoNewPrivileges=yes", "ProtectSystem=full",
            "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
        ] {
            #expect(lines.contains(expected), "missing \(expected)")
        }
        // The daemon reads and writes the files people name (photo add, photo export).
        #expect(!unit.contains("PrivateTmp="))
        #expect(!unit.contains("ProtectHome="))
        // Every sandboxing directive has its own comment on the line above it.
        let all = unit.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let sandbox = try #require(all.firstIndex(of: "NoNewPrivileges=yes"))
        let end = try #require(all.firstIndex(of: "[Install]"))
        for index in sandbox..<end where all[index].contains("=") {
            #expect(all[index - 1].hasPrefix("# "), "no comment above \(all[index])")
        }
    }
}
