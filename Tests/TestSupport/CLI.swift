import Foundation

/// Runs the real `peershare`.
public enum CLI {
    public static func run(
        _ arguments: [String], in directory: TestDirectory, environment: [String: String] = [:],
        timeout: Duration = .seconds(20)
    ) throws -> CLIResult {
        let label = "peershare-\(UUID().uuidString.prefix(8))"
        let env = DaemonProcess.baseEnvironment(directory).merging(environment) { _, given in given }
        let child = try ChildProcess(
            executable: try Products.path("peershare"), arguments: arguments, environment: env,
            directory: directory,
            label: label)
        let status = try child.waitForExit(timeout: timeout)
        return CLIResult(status: status, stdout: child.stdout, stderr: child.stderr)
    }
}

/// What one CLI run produced.
public struct CLIResult: Sendable, CustomStringConvertible {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}
