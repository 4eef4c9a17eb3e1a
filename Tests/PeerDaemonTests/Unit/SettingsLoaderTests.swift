import Foundation
import Support
import TestSupport
import Testing

@testable import PeerDaemon

@Suite struct SettingsLoaderTests {
    private func load(
        _ arguments: [String] = [], environment: [String: String] = ["HOME": "/home/u"], cwd: String = "/work"
    ) throws -> DaemonSettings {
        let parsed = try DaemonArguments.parse(arguments)
        return try SettingsLoader(arguments: parsed, environment: environment, workingDirectory: cwd).load()
    }

    @Test func defaultsFollowHomeWhenNothingElseIsSet() throws {
        let settings = try load()
        #expect(settings.stateDirectory == "/home/u/.local/state/peershare")
        #expect(settings.controlSocket == "/home/u/.local/state/peershare/peershared.sock")
        #expect(settings.listen == PeerAddress(host: "0.0.0.0", port: 7733))
        #expect(settings.advertise == [])
        #expect(settings.logLevel == .info)
        #expect(settings.limits == DaemonLimits())
        #expect(settings.limits.maxControlLineBytes == 1_048_576)
        #expect(settings.limits.maxPhotoBytes == 4 << 30)
        #expect(settings.limits.maxNameBytes == 1024)
        #expect(settings.limits.maxFrameBytes == 16 << 20)
    }

    @Test func defaultsFollowXDGThenSystemd() throws {
        let xdg = try load(environment: [
            "HOME": "/h", "XDG_STATE_HOME": "/x/state", "XDG_RUNTIME_DIR": "/run/user/7",
        ])
        #expect(xdg.stateDirectory == "/x/state/peershare")
        #expect(xdg.controlSocket == "/run/user/7/peershare/peershared.sock")
        let systemd = try load(environment: [
            "HOME": "/h", "XDG_STATE_HOME": "/x/state", "XDG_RUNTIME_DIR": "/run/user/7",
            "STATE_DIRECTORY": "/s/peershare:/s/other", "RUNTIME_DIRECTORY": "/run/user/7/peershare",
        ])
        #expect(systemd.stateDirectory == "/s/peershare")
        #expect(systemd.controlSocket == "/run/user/7/peershare/peershared.sock")
        let relativeXDG = try load(environment: ["HOME": "/h", "XDG_STATE_HOME": "state"])
        #expect(relativeXDG.stateDirectory == "/h/.local/state/peershare")
    }

    @Test func theSocketFollowsAGivenStateDirectoryWhenThereIsNoRuntimeDirectory() throws {
        let settings = try load(["--state-dir", "/data/ps"])
        #expect(settings.controlSocket == "/data/ps/peershared.sock")
    }

    @Test func flagsOverrideTheFileAndRelativeFlagPathsUseTheWorkingDirectory() throws {
        let directory = try TestDirectory()
        let config = try directory.write(
            "c.conf", "log_level = error\nstate_dir = ~/photos\nlisten = [::1]:9\n")
        let settings = try load(["--config", config, "--log-level", "debug", "--control-socket", "s.sock"])
        #expect(settings.logLevel == .debug)
        #expect(settings.stateDirectory == "/home/u/photos")
        #expect(settings.controlSocket == "/work/s.sock")
        #expect(settings.listen == PeerAddress(host: "::1", port: 9))
    }

    @Test func aRelativePathInTheFileIsRefused() throws {
        let directory = try TestDirectory()
        let config = try directory.write("c.conf", "state_dir = photos\n")
        #expect(
            throws: ConfigError.badValue(
                source: "\(config):1", key: "state_dir", value: "photos",
                allowed: "an absolute path (~/ allowed)")
        ) { try load(["--config", config]) }
    }

    @Test func theCommandLineIsTableDriven() throws {
        let parsed = try DaemonArguments.parse(["--config=/c", "--listen", "1.2.3.4:5", "--advertise=a:1"])
        #expect(parsed.configFile == "/c")
        #expect(
            parsed.overrides == [
                .init(flag: "--listen", key: "listen", value: "1.2.3.4:5"),
                .init(flag: "--advertise", key: "advertise", value: "a:1"),
            ])
        #expect(throws: ConfigError.usage("--listen needs a value")) {
            try DaemonArguments.parse(["--listen"])
        }
        #expect(throws: ConfigError.usage("unknown option 'listen'")) {
            try DaemonArguments.parse(["listen"])
        }
    }

    @Test func aReloadKeepsWhatNeedsARestartAndSaysSo() {
        var running = DaemonSettings(stateDirectory: "/s", controlSocket: "/s/c.sock")
        running.logLevel = .info
        var loaded = running
        loaded.logLevel = .debug
        loaded.listen = PeerAddress(host: "127.0.0.1", port: 1)
        loaded.stateDirectory = "/elsewhere"
        loaded.limits.maxNameBytes = 10
        loaded.limits.maxControlConnections = 3
        let plan = ReloadPlan(running: running, loaded: loaded)
        #expect(plan.restartRequired == ["listen", "max_name_bytes", "state_dir"])
        #expect(plan.settings.logLevel == .debug)
        #expect(plan.settings.limits.maxControlConnections == 3)
        #expect(plan.settings.limits.maxNameBytes == running.limits.maxNameBytes)
        #expect(plan.settings.listen == running.listen)
        #expect(plan.settings.stateDirectory == "/s")
    }
}
