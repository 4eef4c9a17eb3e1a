import Foundation
import Glibc

// First, before any thread exists: every thread then inherits the blocked signal mask.
StreamInterrupter.shared.install()
exit(
    PeerShareMain.run(
        arguments: Array(CommandLine.arguments.dropFirst()),
        environment: ProcessInfo.processInfo.environment,
        workingDirectory: FileManager.default.currentDirectoryPath))
