/// What a SIGHUP reload changes: settings that apply live are taken from the new
/// configuration; those bound at start-up (sockets, state directory, the limits the stores
/// read when they open) keep their running values and are reported, so the log says a
/// restart is needed.
struct ReloadPlan: Equatable {
    /// The settings to run with from now on.
    let settings: DaemonSettings
    /// Keys whose new value needs a restart, sorted.
    let restartRequired: [String]

    init(running: DaemonSettings, loaded: DaemonSettings) {
        var settings = loaded
        var restartRequired: [String] = []
        /// Keeps the running value of the setting at `path` when the loaded one differs.
        func keep<Value: Equatable>(_ key: String, _ path: WritableKeyPath<DaemonSettings, Value>) {
            guard loaded[keyPath: path] != running[keyPath: path] else { return }
            restartRequired.append(key)
            settings[keyPath: path] = running[keyPath: path]
        }
        keep("listen", \.listen)
        keep("control_socket", \.controlSocket)
        keep("state_dir", \.stateDirectory)
        keep("local_discovery", \.localDiscovery)
        keep("discovery_port", \.discoveryPort)
        keep("web_listen", \.webListen)
        let limits: WritableKeyPath<DaemonSettings, DaemonLimits> = \.limits
        for (key, path) in Self.storeLimits + Self.peerLimits {
            keep(key, limits.appending(path: path as WritableKeyPath<DaemonLimits, Int>))
        }
        for (key, path) in Self.peerTimes {
            keep(key, limits.appending(path: path as WritableKeyPath<DaemonLimits, Duration>))
        }
        self.settings = settings
        self.restartRequired = restartRequired.sorted()
    }

    /// Limits the library reads once, when it opens.
    private static let storeLimits: [(String, WritableKeyPath<DaemonLimits, Int> & Sendable)] = [
        ("max_name_bytes", \.maxNameBytes), ("max_photo_bytes", \.maxPhotoBytes),
        ("max_thumbnail_bytes", \.maxThumbnailBytes), ("max_clock_ahead_seconds", \.maxClockAheadSeconds),
        ("max_join_requests", \.maxJoinRequests),
    ]

    /// Durations the replication engine and local discovery read once, when they start.
    private static let peerTimes: [(String, WritableKeyPath<DaemonLimits, Duration> & Sendable)] = [
        ("handshake_timeout", \.handshakeTimeout), ("address_check_interval", \.addressCheckInterval),
        ("discovery_interval", \.discoveryInterval),
    ]

    /// Limits the replication engine and the web server read once, when they start.
    private static let peerLimits: [(String, WritableKeyPath<DaemonLimits, Int> & Sendable)] = [
        ("max_guest_connections", \.maxGuestConnections), ("max_mesh_dials", \.maxMeshDials),
        ("max_incoming_handshakes", \.maxIncomingHandshakes), ("max_frame_bytes", \.maxFrameBytes),
        // The web server's, which it is started with.
        ("web_max_connections", \.webMaxConnections), ("web_connection_timeout", \.webConnectionTimeout),
        ("web_connection_memory_bytes", \.webConnectionMemoryBytes),
        ("max_web_request_bytes", \.maxWebRequestBytes),
    ]
}
