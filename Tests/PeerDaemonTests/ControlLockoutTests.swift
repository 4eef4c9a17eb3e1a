import ControlProtocol
import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// Local clients cannot lock the CLI out: refusals never wait on the client, idle
/// connections are closed, and the CLI gives up on a daemon that does not answer.
@Suite(.onOwnThreads) struct ControlLockoutTests {
    @Test func pingAnswersWhileIdleClientsHoldEverySlotAndMoreKeepConnecting() throws {
        let directory = try TestDirectory()
        let config = try directory.write("peershared.conf", "max_control_connections = 16\n")
        let daemon = try DaemonProcess.startReady(in: directory, arguments: ["--config", config])

        // Idle clients until one is refused: then every slot is held by a client that
        // neither sends nor closes.
        var idle: [RawControlClient] = []
        while true {
            let probe = try RawControlClient(path: daemon.socketPath)
            // A refused client may find the connection already closed when it writes; the
            // refusal is still there to read.
            try? probe.send(#"{"id": 1, "command": "ping"}"#)
            let answer = try probe.readJSON()
            if answer["error"]?["code"] == "too_many_connections" { break }
            idle.append(probe)
            try #require(idle.count <= 16, "more clients admitted than max_control_connections")
        }
        // And a stream of connects that are refused and stay open a while without a word.
        let flood = ConnectionFlood(path: daemon.socketPath, threads: 2)
        defer { flood.stop() }
        try waitUntil("the flood to be under way") { flood.connections >= 100 }

        for _ in 0..<3 {
            // The harness's bound is the test's: the old accept loop spent 200 ms on each
            // refused client, so a ping waited behind a full backlog for 13 s or more.
            let ping = try CLI.run(
                ["--socket", daemon.socketPath, "ping"], in: directory, timeout: .seconds(10))
            #expect(ping.status == 0 || ping.status == 1, "\(ping)")
            if ping.status == 1 {
                #expect(ping.stderr.hasPrefix("peershare: peershared already serves 16 control connections"))
            } else {
                #expect(ping.stdout == "pong\n")
            }
        }
        #expect(idle.count == 16)
    }

    @Test func connectionsThatSendNoRequestAreClosedButAWatchStreamIsNot() throws {
        let directory = try TestDirectory()
        // The default control_idle_timeout of 10 s.
        let daemon = try DaemonProcess.startReady(in: directory)
        let silent = try RawControlClient(path: daemon.socketPath)
        let partial = try RawControlClient(path: daemon.socketPath)
        try partial.sendWithoutNewline(#"{"id": 1, "command": "pi"#)
        let answered = try RawControlClient(path: daemon.socketPath)
        #expect(try answered.request(#"{"id": 1, "command": "ping"}"#)["ok"] == true)
        let watch = try daemon.startCLI("--json", "watch", label: "watch")
        try waitUntil("the watch client to subscribe") { try daemon.json("status")["watchers"] == 1 }

        let message =
            "no complete request within 10 s (control_idle_timeout): this connection is now closed; "
            + "connect again to send one"
        for client in [silent, partial, answered] {
            #expect(
                try client.readJSON()
                    == [
                        "id": nil, "ok": false,
                        "error": ["code": "idle_timeout", "message": .string(message)],
                    ])
            #expect(client.readsEndOfStream())
        }
        try daemon.waitForLogLine(
            "<6>closed a control connection that sent no request in time", containing: "reason=idle",
            "control_idle_timeout=10")

        // The stream outlived the idle timeout and still carries events.
        #expect(try daemon.json("status")["watchers"] == 1)
        daemon.send(SIGHUP)
        try waitUntil("daemon.reloaded on watch's stdout: \(watch.stdout)") {
            watch.stdout.contains("daemon.reloaded")
        }
    }

    @Test func theCLIGivesUpOnADaemonThatAcceptsButNeverAnswers() throws {
        let directory = try TestDirectory()
        let server = try SilentControlServer(path: directory.file("hung.sock"))
        let message =
            "the daemon at \(server.path) did not answer within 1 s: it may be stuck or overloaded (see its "
            + "log, 'journalctl --user -u peershared'); peershare --timeout SECONDS waits longer"
        let fromEnvironment = try CLI.run(
            ["--socket", server.path, "ping"], in: directory, environment: ["PEERSHARE_TIMEOUT": "1"])
        #expect(fromEnvironment.status == 3)
        #expect(fromEnvironment.stderr == "peershare: \(message)\n")

        let fromFlag = try CLI.run(
            ["--json", "--socket", server.path, "--timeout", "2", "status"], in: directory)
        #expect(fromFlag.status == 3)
        let two = message.replacingOccurrences(of: "within 1 s", with: "within 2 s")
        #expect(
            JSONLine.decode(Data(fromFlag.stdout.utf8))
                == ["error": ["code": "daemon_timeout", "message": .string(two)]])
    }

    @Test func theCLIGivesUpOnADaemonThatDoesNotEvenAccept() throws {
        let directory = try TestDirectory()
        let server = try SilentControlServer(path: directory.file("full.sock"), accepting: false)
        let result = try CLI.run(
            ["--socket", server.path, "ping"], in: directory, environment: ["PEERSHARE_TIMEOUT": "1"])
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("peershare: the daemon at \(server.path) did not answer within 1 s"))
    }

    @Test func aWatchOutlivesTheCLITimeoutAndLongCommandsStillWork() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let watch = try ChildProcess(
            executable: try Products.path("peershare"),
            arguments: ["--socket", daemon.socketPath, "--timeout", "1", "--json", "watch"],
            environment: DaemonProcess.baseEnvironment(directory), directory: directory, label: "watch")
        try waitUntil("the watch client to subscribe") { try daemon.json("status")["watchers"] == 1 }
        let start = try #require(try daemon.json("status")["uptime_seconds"]?.doubleValue)
        try waitUntil("two seconds of daemon uptime") {
            (try daemon.json("status")["uptime_seconds"]?.doubleValue ?? 0) > start + 2
        }
        daemon.send(SIGHUP)
        try waitUntil("daemon.reloaded on watch's stdout: \(watch.stdout)") {
            watch.stdout.contains("daemon.reloaded")
        }
        #expect(watch.isRunning)
        // sync --wait's own timeout goes to the daemon, and the CLI waits for it.
        let sync = try daemon.cli(
            ["sync", "--wait", "--timeout", "5"], environment: ["PEERSHARE_TIMEOUT": "1"])
        #expect(sync.status == 0 && sync.stdout == "in sync\n", "\(sync)")
    }
}

/// Threads that connect to a socket as fast as it takes connections, keep each open without
/// sending anything until `keepOpen` newer ones are open, then close it: clients the daemon
/// must refuse without waiting for them. (The old accept loop waited 200 ms on each such
/// client; kept open that long, every one of them costs it the full wait.)
final class ConnectionFlood: @unchecked Sendable {
    private let stopped = Mutex(false)
    private let count = Mutex(0)
    private let finished = DispatchGroup()

    init(path: String, threads: Int, keepOpen: Int = 200) {
        for _ in 0..<threads {
            finished.enter()
            let thread = Thread { [self] in
                defer { finished.leave() }
                var open: [Int32] = []
                while !stopped.withLock({ $0 }) {
                    guard let fd = try? UnixSocket.connect(path: path) else { continue }
                    count.withLock { $0 += 1 }
                    open.append(fd)
                    if open.count > keepOpen { close(open.removeFirst()) }
                    // A load generator's pace, not a wait: at most about 1,000 connects a
                    // second per thread, leaving the machine's two cores to the daemon.
                    usleep(1000)
                }
                for fd in open { close(fd) }
            }
            thread.start()
        }
    }

    var connections: Int { count.withLock { $0 } }

    func stop() {
        stopped.withLock { $0 = true }
        finished.wait()
    }
}
