import Foundation
import Glibc

// Before anything else, and before any thread exists, so every thread inherits the mask
// and no signal is lost between start-up and the signal thread taking over.
SignalReceiver.blockHandledSignals()
exit(
    PeerDaemonMain.run(
        arguments: Array(CommandLine.arguments.dropFirst()),
        environment: ProcessInfo.processInfo.environment,
        workingDirectory: FileManager.default.currentDirectoryPath))
