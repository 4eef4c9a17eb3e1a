import ControlProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// The real `peershared` starting, notifying systemd, reloading and stopping.
@Suite(.onOwnThreads) struct DaemonLifecycleTests {
    @Test func readyIsSentOnlyOnceTheControlSocketAnswers() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess(in: directory)
        let ready = try daemon.waitUntilReady()
        // The very first thing after READY=1: a raw connection must be answered.
        let client = try RawControlClient(path: daemon.socketPath)
        #expect(
            try client.request(#"{"id": 1, "command": "ping"}"#) == [
                "id": 1, "ok": true, "result": ["pong": true],
            ])
        #expect(ready.contains("STATUS=ready: peers on 127.0.0.1:"))
        #expect(daemon.notify.messages.filter { $0.contains("READY=1") }.count == 1)
        var status = stat()
        #expect(lstat(daemon.socketPath, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
    }

    /// The daemon's modules import FoundationEssentials, never Foundation: Foundation and
    /// its ICU would be about 6 MiB of an idle daemon's 32 MiB budget (SPEC §11).
    @Test func theDaemonLoadsNeitherFoundationNorICU() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        // Read to the end: /proc files say they are empty, and a size-based read stops short.
        let fd = open("/proc/\(daemon.pid)/maps", O_RDONLY | O_CLOEXEC)
        #expect(fd >= 0)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk.prefix(count)
        }
        close(fd)
        let maps = String(decoding: bytes, as: UTF8.self)
        #expect(maps.contains("libFoundationEssentials.so"))
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            #expect(!maps.contains("/" + library), "peershared maps \(library)")
        }
        daemon.send(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    @Test func sigtermStopsGracefullyRemovesTheSocketAndExitsZero() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        daemon.send(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
        try daemon.notify.next(containing: "STOPPING=1")
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
        #expect(daemon.stderr.hasSuffix("<6>stopping reason=SIGTERM\n<6>replication stopped\n<6>stopped\n"))
        // The lock went with it: a new daemon starts on the same state directory.
        let again = try DaemonProcess(in: directory, label: "again")
        try again.waitUntilReady()
    }

    @Test func sigintStopsLikeSigterm() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        daemon.send(SIGINT)
        #expect(try daemon.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    @Test func theIdentitySurvivesARestart() throws {
        let directory = try TestDirectory()
        let first = try DaemonProcess.startReady(in: directory)
        let id = try first.json("id")
        first.send(SIGTERM)
        #expect(try first.waitForExit() == 0)
        let second = try DaemonProcess(in: directory, label: "second")
        try second.waitUntilReady()
        #expect(try second.json("id") == id)
    }

    @Test func sighupReloadsTheLogLevel() throws {
        let directory = try TestDirectory()
        let config = try directory.write("peershared.conf", "log_level = info\n")
        let daemon = try DaemonProcess.startReady(in: directory, arguments: ["--config", config])
        _ = try daemon.json("ping")
        try daemon.waitForLog("<6>peershared")
        #expect(!daemon.stderr.contains("<7>"))

        try directory.write("peershared.conf", "log_level = debug\n")
        daemon.send(SIGHUP)
        let reloading = try daemon.notify.next(containing: "RELOADING=1")
        #expect(reloading.contains("MONOTONIC_USEC="))
        try daemon.notify.next(containing: "READY=1")
        try daemon.waitForLog("<6>configuration reloaded log_level=debug")
        _ = try daemon.json("ping")
        try daemon.waitForLogLine("<7>control request ", containing: "command=ping")
        #expect(try daemon.json("status")["log_level"] == "debug")
    }

    @Test func aBrokenConfigOnReloadKeepsTheRunningOne() throws {
        let directory = try TestDirectory()
        let config = try directory.write("peershared.conf", "log_level = warning\n")
        let daemon = try DaemonProcess.startReady(in: directory, arguments: ["--config", config])
        try directory.write("peershared.conf", "log_level = loud\n")
        daemon.send(SIGHUP)
        try daemon.notify.next(containing: "RELOADING=1")
        try daemon.notify.next(containing: "READY=1")
        try daemon.waitForLog(
            "<3>configuration reload failed, keeping the running configuration: \(config):1: bad value 'loud' "
                + "for log_level: expected error, warning, info or debug")
        #expect(try daemon.json("status")["log_level"] == "warning")
    }

    @Test func watchdogPingsAtHalfTheInterval() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess(in: directory, environment: ["WATCHDOG_USEC": "200000"])
        try daemon.waitUntilReady()
        try daemon.notify.next(containing: "WATCHDOG=1")
        try daemon.notify.next(containing: "WATCHDOG=1")
    }

    @Test func notifiesAnAbstractNotifySocket() throws {
        let directory = try TestDirectory()
        let name = "peershare-test-\(UUID().uuidString)"
        let listener = try NotifyListener(path: name, abstract: true)
        let daemon = try DaemonProcess(in: directory, environment: ["NOTIFY_SOCKET": listener.address])
        try listener.next(containing: "READY=1")
        _ = try daemon.json("ping")
    }
}
