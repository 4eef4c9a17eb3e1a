import ControlProtocol
import Glibc

/// `peershared`'s entry point: arguments → settings → `Daemon`, and one place that turns
/// a failure into a message and an exit status.
///
/// Outside `main.swift` so nothing here is main-actor isolated: the closures handed to
/// the signal thread must not be.
enum PeerDaemonMain {
    /// Exit statuses (sysexits.h), so the unit can refuse to restart on failures that
    /// would repeat (its RestartPreventExitStatus= lists 64, 69 and 78).
    enum ExitStatus {
        static let success: Int32 = 0
        static let failure: Int32 = 1
        /// EX_USAGE: an unknown flag or a flag without its value.
        static let usage: Int32 = 64
        /// EX_UNAVAILABLE: the listen address is in use by another program.
        static let addressInUse: Int32 = 69
        /// EX_CONFIG: a bad config file or setting, or a library found elsewhere.
        static let config: Int32 = 78

        /// Each status and what it means, as peershared(8) lists them.
        static let all: [(status: Int32, meaning: String)] = [
            (success, "stopped after SIGTERM or SIGINT, or --help, --version or --man printed"),
            (
                failure,
                "could not start: state directory, control socket, identity or stores (see the message)"
            ),
            (usage, "an unknown flag, or a flag without its value (EX_USAGE)"),
            (addressInUse, "the listen address is in use by another program (EX_UNAVAILABLE)"),
            (config, "a bad config file or setting, or a library found in another known place (EX_CONFIG)"),
        ]
    }

    static func run(arguments: [String], environment: [String: String], workingDirectory: String) -> Int32 {
        let parsed: DaemonArguments
        do {
            parsed = try DaemonArguments.parse(arguments)
        } catch {
            printError("peershared: \(error)")
            return ExitStatus.usage
        }
        if parsed.showHelp {
            print(DaemonArguments.usage)
            return ExitStatus.success
        }
        if parsed.showManPage {
            print(DaemonManPage.render(), terminator: "")
            return ExitStatus.success
        }
        if parsed.showVersion {
            print("peershared \(PeerShareVersion.string)")
            return ExitStatus.success
        }
        let loader = SettingsLoader(
            arguments: parsed, environment: environment, workingDirectory: workingDirectory)
        let settings: DaemonSettings
        do {
            settings = try loader.load()
        } catch {
            printError(LogLine.format(level: .error, message: "peershared: \(error)", metadata: [:]))
            return ExitStatus.config
        }
        if let backup = parsed.restore {
            return restore(backup, into: settings.stateDirectory, workingDirectory: workingDirectory)
        }
        DescriptorLimit.raise()
        let sink = LogSink(level: settings.logLevel)
        let daemon: Daemon
        do {
            daemon = try Daemon(loader: loader, settings: settings, environment: environment, logSink: sink)
        } catch {
            Logger(sink: sink).error("peershared: \(error)")
            return error.exitStatus
        }
        SignalReceiver.start { signal in daemon.handle(signal: signal) }
        daemon.waitUntilStopped()
        return ExitStatus.success
    }

    /// `--restore DIR`: restores and exits; the daemon is started afterwards as usual.
    private static func restore(_ backup: String, into stateDirectory: String, workingDirectory: String)
        -> Int32
    {
        let absolute = backup.hasPrefix("/") ? backup : workingDirectory + "/" + backup
        do {
            let result = try BackupRestore(backup: absolute, stateDirectory: stateDirectory).run()
            print(
                "restored the backup of \(result.manifest.createdAt) (peer \(result.manifest.peerID), "
                    + "\(result.photos) photos) into \(stateDirectory); start peershared to use it")
            return ExitStatus.success
        } catch {
            printError("peershared: \(error)")
            return ExitStatus.failure
        }
    }

    private static func printError(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
