import FoundationEssentials
import Glibc

// Before anything else, and before any thread exists, so every thread inherits the mask
// and no signal is lost between start-up and the signal thread taking over.
SignalReceiver.blockHandledSignals()
// Everything the daemon creates (stores, their -wal and -shm, photo data, keys) is private
// to its user, whoever started it and with whatever umask.
umask(0o077)
exit(
    PeerDaemonMain.run(
        arguments: Array(CommandLine.arguments.dropFirst()),
        environment: ProcessInfo.processInfo.environment,
        workingDirectory: FileManager.default.currentDirectoryPath))
