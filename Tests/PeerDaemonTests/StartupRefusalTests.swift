import ControlProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// `peershared` refusing to start, with a message that says why and what to do.
@Suite(.onOwnThreads) struct StartupRefusalTests {
    @Test func aSecondDaemonOnTheSameStateDirectoryIsRefusedNamingThePid() throws {
        let directory = try TestDirectory()
        let first = try DaemonProcess.startReady(in: directory)
        let second = try DaemonProcess(
            in: directory, socketPath: directory.file("second.sock"), label: "second")
        #expect(try second.waitForExit() == 1)
        #expect(
            second.stderr
                == "<3>peershared: another peershared (pid \(first.pid)) is already using state directory "
                + "\(first.stateDirectory): stop it first, or give this daemon its own --state-dir\n")
        #expect(try first.json("ping") == ["pong": true])
        #expect(!FileManager.default.fileExists(atPath: directory.file("second.sock")))
    }

    @Test func aControlSocketPathThatIsARegularFileIsRefusedAndKept() throws {
        let directory = try TestDirectory()
        let path = try directory.write("control.sock", "precious\n")
        let daemon = try DaemonProcess(in: directory)
        #expect(try daemon.waitForExit() == 1)
        #expect(
            daemon.stderr
                == "<3>peershared: control socket path \(path) exists and is not a socket: remove it if it is "
                + "not needed, or choose another path with --control-socket\n")
        #expect(directory.read("control.sock") == "precious\n")
        #expect(daemon.notify.messages.isEmpty)
    }

    @Test func aSocketAnotherDaemonServesIsRefused() throws {
        let directory = try TestDirectory()
        let first = try DaemonProcess.startReady(in: directory)
        let second = try DaemonProcess(
            in: directory, stateDirectory: directory.file("other-state"), socketPath: first.socketPath,
            label: "second")
        #expect(try second.waitForExit() == 1)
        #expect(
            second.stderr
                == "<3>peershared: control socket \(first.socketPath) is in use by another running peershared: "
                + "stop it, or choose another path with --control-socket\n")
        #expect(try first.json("ping") == ["pong": true])
    }

    @Test func aPeerPortInUseIsRefusedNamingTheAddress() throws {
        let directory = try TestDirectory()
        let first = try DaemonProcess.startReady(in: directory)
        let listen = try #require(try first.json("status")["listen"]?.stringValue)
        let second = try DaemonProcess(
            in: directory, arguments: ["--listen", listen], stateDirectory: directory.file("other-state"),
            socketPath: directory.file("second.sock"), label: "second")
        // 69 (EX_UNAVAILABLE), which the unit's RestartPreventExitStatus= lists: retrying
        // will not free the port.
        #expect(try second.waitForExit() == 69)
        #expect(
            second.stderr
                == "<3>peershared: cannot listen for peers on \(listen): \(String(cString: strerror(EADDRINUSE))): "
                + "another program (or another peershared) holds the port: stop it, or choose another port with "
                + "--listen or the listen setting\n")
        #expect(try first.json("ping") == ["pong": true])
    }

    @Test func aStaleSocketIsReplaced() throws {
        let directory = try TestDirectory()
        let path = directory.file("control.sock")
        // A socket file nobody listens on, as a crashed daemon leaves behind.
        let fd = try UnixSocket.makeSocket(SOCK_STREAM, for: path)
        var address = UnixSocket.address(path)!
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(fd)
        #expect(bound == 0)
        let daemon = try DaemonProcess.startReady(in: directory)
        try daemon.waitForLogLine(
            "<6>removed a stale control socket left by an earlier run", containing: path)
        #expect(try daemon.json("ping") == ["pong": true])
    }

    @Test func anUnknownConfigKeyIsRefusedNamingFileLineKeyAndTheAllowedKeys() throws {
        let directory = try TestDirectory()
        let config = try directory.write("peershared.conf", "# colours\nlog_level = info\ncolour = blue\n")
        let daemon = try DaemonProcess(in: directory, arguments: ["--config", config])
        #expect(try daemon.waitForExit() == 78)
        #expect(
            daemon.stderr
                == "<3>peershared: \(config):3: unknown setting 'colour'; allowed settings are "
                + "address_check_interval, advertise, control_idle_timeout, control_socket, device_link_validity, "
                + "discovery_interval, "
                + "discovery_port, doctor_min_free_bytes, handshake_timeout, listen, local_discovery, log_level, "
                + "max_clock_ahead_seconds, max_control_connections, max_control_line_bytes, max_frame_bytes, "
                + "max_guest_connections, max_incoming_handshakes, max_join_requests, max_mesh_dials, max_name_bytes, max_photo_bytes, "
                + "max_thumbnail_bytes, max_web_request_bytes, share_url_members, state_dir, web_connection_memory_bytes, "
                + "web_connection_timeout, web_listen, web_max_connections\n")
        #expect(daemon.notify.messages.isEmpty)
    }

    @Test func aBadConfigValueIsRefusedNamingWhatIsAllowed() throws {
        let directory = try TestDirectory()
        let config = try directory.write("peershared.conf", "max_control_line_bytes = 10\n")
        let daemon = try DaemonProcess(in: directory, arguments: ["--config", config])
        #expect(try daemon.waitForExit() == 78)
        #expect(
            daemon.stderr
                == "<3>peershared: \(config):1: bad value '10' for max_control_line_bytes: expected a byte count "
                + "such as 65536, 64KiB, 16MiB or 4GiB, from 1KiB to 1GiB\n")
    }

    @Test func aMissingConfigFileIsRefused() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess(in: directory, arguments: ["--config", directory.file("nope.conf")])
        #expect(try daemon.waitForExit() == 78)
        #expect(
            daemon.stderr
                == "<3>peershared: cannot read config file \(directory.file("nope.conf")): no such file\n")
    }

    @Test func aBadFlagValueAndAnUnknownFlagAreRefused() throws {
        let directory = try TestDirectory()
        let badValue = try DaemonProcess(in: directory, arguments: ["--advertise", "nowhere"], label: "bad")
        #expect(try badValue.waitForExit() == 78)
        #expect(
            badValue.stderr
                == "<3>peershared: --advertise: bad value 'nowhere' for advertise: expected one or more "
                + "HOST:PORT separated by commas, such as photos.example.org:7733 or "
                + "192.0.2.7:7733,[2001:db8::7]:7733 (a port other than 0, and not a wildcard address such as "
                + "0.0.0.0)\n")
        let unknown = try DaemonProcess(in: directory, arguments: ["--colour", "blue"], label: "unknown")
        #expect(try unknown.waitForExit() == 64)
        #expect(unknown.stderr == "peershared: unknown option '--colour' (see 'peershared --help')\n")
    }

    @Test func flagsOverrideTheConfigFile() throws {
        let directory = try TestDirectory()
        let config = try directory.write(
            "peershared.conf", "log_level = error\nadvertise = example.org:7733\n")
        let daemon = try DaemonProcess.startReady(
            in: directory,
            arguments: ["--config", config, "--log-level", "debug", "--advertise", "example.net:1"])
        let status = try daemon.json("status")
        #expect(status["log_level"] == "debug")
        #expect(status["advertise"] == "example.net:1")
        #expect(status["config_file"] == .string(config))
    }

    @Test func aLibraryThatCannotBeOpenedIsRefusedBeforeReady() throws {
        let directory = try TestDirectory()
        let state = directory.file("state")
        try FileManager.default.createDirectory(
            atPath: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try directory.write("state/library", "not a directory\n")
        chmod(state + "/library", 0o600)  // private already: nothing to tighten, nothing logged
        let daemon = try DaemonProcess(in: directory)
        #expect(try daemon.waitForExit() == 1)
        #expect(
            daemon.stderr
                == "<3>peershared: cannot open the photo library in \(state)/library: creating directory "
                + "\(state)/library/blobs failed: Not a directory\n")
        #expect(daemon.notify.messages.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }
}
