import ControlProtocol
import Support

/// Every setting `peershared` understands.
///
/// Adding a setting is one entry here, one field in `DaemonSettings`, and its documented
/// line in `config/peershared.conf` (a test checks the file names every key).
enum SettingsTable {
    static let all: [Setting] = [
        Setting(key: "listen", defaultValue: "0.0.0.0:7733", allowed: PeerAddress.expected) {
            settings, value, _ in
            guard let address = PeerAddress.listen(value) else { return false }
            settings.listen = address
            return true
        },
        Setting(
            key: "advertise", defaultValue: "(the bound listen address, or the interface addresses)",
            allowed: PeerAddress.expectedAdvertised
        ) { settings, value, _ in
            guard let addresses = PeerAddress.advertisedList(value) else { return false }
            settings.advertise = addresses
            return true
        },
        Setting(
            key: "control_socket", defaultValue: "$RUNTIME_DIRECTORY/peershared.sock",
            allowed: "an absolute path (~/ allowed) of at most \(UnixSocket.maxPathBytes) bytes"
        ) { settings, value, context in
            guard let path = context.path(value), path.utf8.count <= UnixSocket.maxPathBytes else {
                return false
            }
            settings.controlSocket = path
            return true
        },
        Setting(
            key: "state_dir", defaultValue: "$STATE_DIRECTORY", allowed: "an absolute path (~/ allowed)"
        ) { settings, value, context in
            guard let path = context.path(value) else { return false }
            settings.stateDirectory = path
            return true
        },
        Setting(key: "log_level", defaultValue: "info", allowed: "error, warning, info or debug") {
            settings, value, _ in
            guard let level = LogLevel(name: value) else { return false }
            settings.logLevel = level
            return true
        },
        byteCount("max_control_line_bytes", \.maxControlLineBytes, min: 1 << 10, max: 1 << 30),
        count("max_control_connections", \.maxControlConnections, min: 1, max: 4096),
        count("control_idle_timeout", \.controlIdleTimeout, min: 1, max: 86_400, unit: "seconds"),
        byteCount("max_photo_bytes", \.maxPhotoBytes, min: 1, max: 1 << 40),
        byteCount("max_name_bytes", \.maxNameBytes, min: 1, max: 1 << 16),
        byteCount("max_thumbnail_bytes", \.maxThumbnailBytes, min: 1 << 10, max: 64 << 20),
        byteCount("max_frame_bytes", \.maxFrameBytes, min: 64 << 10, max: 1 << 30),
        count("max_clock_ahead_seconds", \.maxClockAheadSeconds, min: 1, max: 30 * 86_400),
        count("max_incoming_handshakes", \.maxIncomingHandshakes, min: 1, max: 4096),
        count("max_guest_connections", \.maxGuestConnections, min: 1, max: 4096),
        count("max_mesh_dials", \.maxMeshDials, min: 0, max: 1024),
        count("max_join_requests", \.maxJoinRequests, min: 1, max: 10_000),
        // At most what a URL may list (`ShareURL.maximumMembers`).
        count("share_url_members", \.shareURLMembers, min: 0, max: 16),
        timeSpan("handshake_timeout", \.handshakeTimeout, min: .milliseconds(100), max: .seconds(600)),
        timeSpan("address_check_interval", \.addressCheckInterval, min: .seconds(1), max: .seconds(3600)),
        Setting(key: "local_discovery", defaultValue: "on", allowed: "on or off") { settings, value, _ in
            guard value == "on" || value == "off" else { return false }
            settings.localDiscovery = value == "on"
            return true
        },
        Setting(key: "discovery_port", defaultValue: "21034", allowed: "a UDP port from 1 to 65535") {
            settings, value, _ in
            guard let port = UInt16(value), port > 0 else { return false }
            settings.discoveryPort = port
            return true
        },
        timeSpan("discovery_interval", \.discoveryInterval, min: .seconds(1), max: .seconds(3600)),
        timeSpan("device_link_validity", \.deviceLinkValidity, min: .seconds(1), max: .seconds(86_400)),
        byteCount("doctor_min_free_bytes", \.doctorMinFreeBytes, min: 0, max: 1 << 50),
        Setting(
            key: "web_listen", defaultValue: "127.0.0.1:7734", allowed: "off, or \(PeerAddress.expected)"
        ) { settings, value, _ in
            if value == "off" {
                settings.webListen = nil
                return true
            }
            guard let address = PeerAddress.listen(value) else { return false }
            settings.webListen = address
            return true
        },
        count("web_max_connections", \.webMaxConnections, min: 1, max: 1024),
        count("web_connection_timeout", \.webConnectionTimeout, min: 5, max: 3600, unit: "seconds"),
        byteCount("web_connection_memory_bytes", \.webConnectionMemoryBytes, min: 16 << 10, max: 16 << 20),
        byteCount("max_web_request_bytes", \.maxWebRequestBytes, min: 1 << 10, max: 16 << 20),
    ]

    /// The setting called `key`, if there is one.
    static func named(_ key: String) -> Setting? {
        all.first { $0.key == key }
    }

    /// The keys, sorted, as an error message lists them.
    static var keyList: String {
        all.map(\.key).sorted().joined(separator: ", ")
    }

    private static func byteCount(
        _ key: String, _ field: WritableKeyPath<DaemonLimits, Int> & Sendable, min: Int, max: Int
    ) -> Setting {
        let allowed = "\(ByteCount.expected), from \(ByteCount.format(min)) to \(ByteCount.format(max))"
        return Setting(
            key: key, defaultValue: ByteCount.format(DaemonLimits()[keyPath: field]), allowed: allowed
        ) { settings, value, _ in
            guard let bytes = ByteCount.parse(value), (min...max).contains(bytes) else { return false }
            settings.limits[keyPath: field] = bytes
            return true
        }
    }

    private static func timeSpan(
        _ key: String, _ field: WritableKeyPath<DaemonLimits, Duration> & Sendable, min: Duration,
        max: Duration
    ) -> Setting {
        Setting(
            key: key, defaultValue: TimeSpan.format(DaemonLimits()[keyPath: field]),
            allowed: "\(TimeSpan.expected), from \(TimeSpan.format(min)) to \(TimeSpan.format(max))"
        ) { settings, value, _ in
            guard let duration = TimeSpan.parse(value), (min...max).contains(duration) else { return false }
            settings.limits[keyPath: field] = duration
            return true
        }
    }

    private static func count(
        _ key: String, _ field: WritableKeyPath<DaemonLimits, Int> & Sendable, min: Int, max: Int,
        unit: String? = nil
    ) -> Setting {
        Setting(
            key: key, defaultValue: "\(DaemonLimits()[keyPath: field])",
            allowed: "a whole number\(unit.map { " of \($0)" } ?? "") from \(min) to \(max)"
        ) { settings, value, _ in
            guard let number = Int(value), (min...max).contains(number) else { return false }
            settings.limits[keyPath: field] = number
            return true
        }
    }
}
