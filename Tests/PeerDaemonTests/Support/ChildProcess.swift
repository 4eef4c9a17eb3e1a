import Foundation
import Glibc

/// A real executable run as a child process, with its stdout and stderr captured in files
/// of the test's directory (no pipes to fill up, and the files outlive a failure).
///
/// The environment is exactly what the test passes: tests run in parallel in one process,
/// so nothing is ever set in the test process's own environment.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    let stdoutPath: String
    let stderrPath: String

    init(
        executable: String, arguments: [String], environment: [String: String], directory: TestDirectory,
        label: String
    ) throws {
        stdoutPath = directory.file("\(label).stdout")
        stderrPath = directory.file("\(label).stderr")
        for path in [stdoutPath, stderrPath] {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var pid: Int32 { process.processIdentifier }

    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }

    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end and returns its exit status; a death by signal is a
    /// harness error that shows stderr.
    func waitForExit(timeout: Duration = .seconds(20)) throws -> Int32 {
        try waitUntil("\(process.executableURL?.lastPathComponent ?? "child") to exit", timeout: timeout) {
            !process.isRunning
        }
        guard process.terminationReason == .exit else {
            throw HarnessError("killed by signal \(process.terminationStatus); stderr:\n\(stderr)")
        }
        return process.terminationStatus
    }
}

/// What one CLI run produced.
struct CLIResult: Sendable, CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}
