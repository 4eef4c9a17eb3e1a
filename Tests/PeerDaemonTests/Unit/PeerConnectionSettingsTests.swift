import Foundation
import TestSupport
import Testing

@testable import PeerDaemon

/// The settings that bound incoming peer connections: parsed from the file, refused with
/// what is allowed, and needing a restart to change.
@Suite struct PeerConnectionSettingsTests {
    private func load(_ text: String) throws -> DaemonSettings {
        let directory = try TestDirectory()
        let config = try directory.write("c.conf", text)
        let arguments = try DaemonArguments.parse(["--config", config])
        return try SettingsLoader(arguments: arguments, environment: ["HOME": "/h"], workingDirectory: "/")
            .load()
    }

    @Test func theLimitsAndTheHandshakeTimeoutAreRead() throws {
        let defaults = DaemonLimits()
        #expect(defaults.maxIncomingHandshakes == 32)
        #expect(defaults.maxGuestConnections == 16)
        #expect(defaults.handshakeTimeout == .seconds(10))
        let settings = try load(
            "max_incoming_handshakes = 4\nmax_guest_connections = 2\nhandshake_timeout = 1500ms\n")
        #expect(settings.limits.maxIncomingHandshakes == 4)
        #expect(settings.limits.maxGuestConnections == 2)
        #expect(settings.limits.handshakeTimeout == .milliseconds(1500))
    }

    @Test func aTimeoutWithoutAUnitOrOutOfRangeIsRefused() throws {
        for value in ["10", "50ms", "11m", "ten s"] {
            #expect(throws: ConfigError.self) { try load("handshake_timeout = \(value)\n") }
        }
        do {
            _ = try load("handshake_timeout = 10\n")
        } catch {
            #expect(
                "\(error)".contains("a duration such as 500ms, 10s or 2m, from 100ms to 10m"), "\(error)")
        }
        #expect(throws: ConfigError.self) { try load("max_incoming_handshakes = 0\n") }
    }

    @Test(arguments: [
        ("500ms", Duration.milliseconds(500)), ("10s", .seconds(10)), ("2m", .seconds(120)),
        ("10 s", .seconds(10)),
    ])
    func timeSpans(text: String, expected: Duration) {
        #expect(TimeSpan.parse(text) == expected)
    }

    @Test func timeSpansPrintInTheLargestExactUnit() {
        #expect(TimeSpan.format(.seconds(10)) == "10s")
        #expect(TimeSpan.format(.seconds(600)) == "10m")
        #expect(TimeSpan.format(.milliseconds(1500)) == "1500ms")
    }

    @Test func changingThemNeedsARestart() {
        let running = DaemonSettings(stateDirectory: "/s", controlSocket: "/s/c.sock")
        var loaded = running
        loaded.limits.maxIncomingHandshakes = 1
        loaded.limits.maxGuestConnections = 1
        loaded.limits.handshakeTimeout = .seconds(1)
        let plan = ReloadPlan(running: running, loaded: loaded)
        #expect(
            plan.restartRequired == ["handshake_timeout", "max_guest_connections", "max_incoming_handshakes"])
        #expect(plan.settings.limits == running.limits)
    }
}
