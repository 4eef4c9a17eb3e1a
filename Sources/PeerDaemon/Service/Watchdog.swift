import Glibc
import Support

/// Sends WATCHDOG=1 at half of `$WATCHDOG_USEC` while the daemon is healthy.
///
/// systemd restarts a unit whose watchdog pings stop (WatchdogSec=). `isHealthy` lets the
/// daemon stop pinging when a vital thread has died, so systemd notices. Runs on its own
/// thread, which waits on a `StopSignal` with the interval as timeout.
final class Watchdog: Sendable {
    let intervalMilliseconds: Int32
    private let notifier: SystemdNotifier
    private let isHealthy: @Sendable () -> Bool
    private let stopSignal = StopSignal()

    /// Nil when no watchdog is requested, or it is meant for another process
    /// (`$WATCHDOG_PID` set to a different pid).
    init?(environment: [String: String], notifier: SystemdNotifier, isHealthy: @escaping @Sendable () -> Bool)
    {
        guard let text = environment["WATCHDOG_USEC"], let micros = Int(text), micros > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"], pid != String(getpid()) { return nil }
        intervalMilliseconds = Int32(clamping: max(micros / 2 / 1000, 1))
        self.notifier = notifier
        self.isHealthy = isHealthy
    }

    func start() {
        IOThread.detach(name: "watchdog") { [self] in
            repeat {
                if isHealthy() { notifier.notify("WATCHDOG=1") }
            } while !stopSignal.wait(timeout: .milliseconds(intervalMilliseconds))
        }
    }

    func stop() { stopSignal.fire() }
}
