import ControlProtocol
import Foundation
import Glibc

/// A real `peershared` started for one test, with its own state directory, control
/// socket, NOTIFY_SOCKET and log file, plus the way to drive it with the real `peershare`.
///
/// Typical use: `let daemon = try DaemonProcess.startReady(in: directory)`, then
/// `daemon.cli("--json", "status")`, `daemon.send(SIGTERM)`, `daemon.waitForExit()`.
public final class DaemonProcess: @unchecked Sendable {
    public let directory: TestDirectory
    public let stateDirectory: String
    public let socketPath: String
    public let notify: NotifyListener
    public let child: ChildProcess
    /// The arguments after the harness's own, kept for `restart`.
    public let arguments: [String]
    /// The command the daemon runs under (`ip netns exec NS`, say), kept for `restart`.
    public let launcher: [String]

    /// The environment every child gets: a private HOME (so no real config is read) and
    /// nothing else from the test process.
    public static func baseEnvironment(_ directory: TestDirectory) -> [String: String] {
        ["HOME": directory.path, "PATH": "/usr/bin:/bin"]
    }

    /// Starts `peershared` without waiting for READY=1. `arguments` come after the
    /// harness's own `--state-dir`, `--control-socket`, `--listen 127.0.0.1:0` and
    /// `--web-listen 127.0.0.1:0` (a later `--web-listen` wins). With a
    /// `launcher` (a command that ends by running the rest of its arguments, such as
    /// `unshare --net …`), that command is run with the daemon's path and arguments.
    public init(
        in directory: TestDirectory, arguments: [String] = [], environment: [String: String] = [:],
        stateDirectory: String? = nil, socketPath: String? = nil, label: String = "peershared",
        launcher: [String] = []
    ) throws {
        self.directory = directory
        self.stateDirectory = stateDirectory ?? directory.file("state")
        self.socketPath = socketPath ?? directory.file("control.sock")
        self.arguments = arguments
        self.launcher = launcher
        notify = try NotifyListener(path: directory.file("\(label).notify"))
        var env = Self.baseEnvironment(directory)
        env["NOTIFY_SOCKET"] = notify.address
        env.merge(environment) { _, given in given }
        let fixed = [
            "--state-dir", self.stateDirectory, "--control-socket", self.socketPath, "--listen",
            "127.0.0.1:0", "--web-listen", "127.0.0.1:0",
        ]
        let daemon = try Products.path("peershared")
        child = try ChildProcess(
            executable: launcher.first ?? daemon,
            arguments: launcher.dropFirst() + (launcher.isEmpty ? [] : [daemon]) + fixed + arguments,
            environment: env, directory: directory, label: label)
    }

    /// Starts `peershared` and waits for READY=1.
    public static func startReady(
        in directory: TestDirectory, arguments: [String] = [], environment: [String: String] = [:],
        stateDirectory: String? = nil, launcher: [String] = []
    ) throws -> DaemonProcess {
        let daemon = try DaemonProcess(
            in: directory, arguments: arguments, environment: environment, stateDirectory: stateDirectory,
            launcher: launcher)
        try daemon.waitUntilReady()
        return daemon
    }

    deinit {
        child.send(SIGKILL)
    }

    public var pid: Int32 { child.pid }

    public var stderr: String { child.stderr }

    /// Waits for READY=1 on the notify socket; fails early, with the log, if the daemon exits.
    @discardableResult
    public func waitUntilReady(timeout: Duration = .seconds(20)) throws -> String {
        do {
            return try notify.next(containing: "READY=1", timeout: timeout)
        } catch {
            throw HarnessError("peershared did not become ready: \(error)\nstderr:\n\(stderr)")
        }
    }

    public func send(_ signal: Int32) { child.send(signal) }

    /// SIGKILL, as a crash or a power cut ends a daemon (nothing it has not written
    /// survives), and waits until the process is gone.
    public func kill() throws {
        send(SIGKILL)
        try waitUntil("peershared to die of SIGKILL", timeout: .seconds(20)) { !child.isRunning }
    }

    public func waitForExit(timeout: Duration = .seconds(20)) throws -> Int32 {
        try child.waitForExit(timeout: timeout)
    }

    /// Waits until the daemon's stderr contains `text`.
    public func waitForLog(_ text: String, timeout: Duration = .seconds(20)) throws {
        try waitUntil("'\(text)' in the daemon log:\n\(stderr)", timeout: timeout) { stderr.contains(text) }
    }

    /// Waits until a line of the daemon's stderr starts with `prefix` and contains every
    /// one of `parts` (metadata order is not part of the contract).
    public func waitForLogLine(
        _ prefix: String, containing parts: String..., timeout: Duration = .seconds(20)
    )
        throws
    {
        try waitUntil("a line '\(prefix)…\(parts)' in the daemon log:\n\(stderr)", timeout: timeout) {
            stderr.split(separator: "\n").contains { line in
                line.hasPrefix(prefix) && parts.allSatisfy { line.contains($0) }
            }
        }
    }

    /// Runs `peershare --socket <this daemon's socket> ARGS…` to completion.
    public func cli(_ arguments: String..., environment: [String: String] = [:]) throws -> CLIResult {
        try cli(arguments, environment: environment)
    }

    public func cli(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
        try CLI.run(["--socket", socketPath] + arguments, in: directory, environment: environment)
    }

    /// Runs `peershare --json --socket … ARGS…` and parses its stdout; fails unless it exits 0.
    public func json(_ arguments: String...) throws -> JSON {
        let result = try CLI.run(["--json", "--socket", socketPath] + arguments, in: directory)
        guard result.status == 0, let value = JSONLine.decode(Data(result.stdout.utf8)) else {
            throw HarnessError("peershare \(arguments) failed: \(result)")
        }
        return value
    }

    /// Starts a long-running `peershare` (such as `watch`) against this daemon.
    public func startCLI(_ arguments: String..., label: String) throws -> ChildProcess {
        try ChildProcess(
            executable: try Products.path("peershare"), arguments: ["--socket", socketPath] + arguments,
            environment: Self.baseEnvironment(directory), directory: directory, label: label)
    }
}
