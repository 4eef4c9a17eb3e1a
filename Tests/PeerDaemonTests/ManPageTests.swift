import Foundation
import TestSupport
import Testing

@testable import PeerDaemon
@testable import PeerShareCLI

/// `docs/man/peershare.1` and `docs/man/peershared.8`: exactly what the binaries generate
/// from their tables today (regenerate with `peershare --man > docs/man/peershare.1` and
/// `peershared --man > docs/man/peershared.8`), and pages man renders without a warning.
@Suite(.onOwnThreads) struct ManPageTests {
    static let pages = [("peershare", "docs/man/peershare.1"), ("peershared", "docs/man/peershared.8")]

    static func committed(_ path: String) throws -> String {
        try String(contentsOf: SystemdUnitTests.repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// What a program printed, and its exit status.
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> Run
    {
        let directory = try TestDirectory()
        let child = try ChildProcess(
            executable: executable, arguments: arguments,
            environment: DaemonProcess.baseEnvironment(directory).merging(environment) { $1 },
            directory: directory,
            label: "man-\(UUID().uuidString.prefix(8))")
        let status = try child.waitForExit(timeout: .seconds(60))
        return Run(status: status, stdout: child.stdout, stderr: child.stderr)
    }

    @Test(arguments: pages)
    func theCommittedPageIsWhatTheBinaryGenerates(program: String, path: String) throws {
        let generated = try Self.run(try Products.path(program), ["--man"])
        #expect(generated.stderr == "")
        #expect(
            generated.stdout == (try Self.committed(path)),
            "\(path) is stale: regenerate it with '\(program) --man > \(path)'")
    }

    @Test(arguments: pages)
    func groffAndManRenderThePageWithoutWarnings(program: String, path: String) throws {
        let file = SystemdUnitTests.repository.appendingPathComponent(path).path
        let groff = try Self.run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", file])
        #expect(groff.status == 0)
        #expect(groff.stderr == "", "\(groff.stderr)")
        let man = try Self.run(
            "/usr/bin/man", ["--warnings", "-l", file], environment: ["MANWIDTH": "80", "LC_ALL": "C.UTF-8"])
        #expect(man.status == 0)
        #expect(man.stderr == "", "\(man.stderr)")
        #expect(man.stdout.contains("NAME"))
        #expect(man.stdout.contains("\(program) - "))
    }

    @Test func thePagesDocumentEveryCommandSettingAndExitStatus() throws {
        let cli = try Self.run(try Products.path("peershare"), ["--man"]).stdout
        for command in CommandTable.all {
            #expect(cli.contains(".SS \"\(command.name)\""), "peershare(1) lacks \(command.name)")
        }
        let daemon = try Self.run(try Products.path("peershared"), ["--man"]).stdout
        for setting in SettingsTable.all {
            #expect(
                daemon.contains("\\fB\(setting.key)\\fR = "), "peershared(8) lacks the setting \(setting.key)"
            )
        }
        for (status, _) in PeerDaemonMain.ExitStatus.all {
            #expect(daemon.contains(".TP\n\\fB\(status)\\fR\n"), "peershared(8) lacks exit status \(status)")
        }
        #expect(daemon.contains("\\fBSIGHUP\\fR"))
    }
}
