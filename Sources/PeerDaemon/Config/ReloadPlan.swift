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
        if loaded.listen != running.listen {
            restartRequired.append("listen")
            settings.listen = running.listen
        }
        if loaded.controlSocket != running.controlSocket {
            restartRequired.append("control_socket")
            settings.controlSocket = running.controlSocket
        }
        if loaded.stateDirectory != running.stateDirectory {
            restartRequired.append("state_dir")
            settings.stateDirectory = running.stateDirectory
        }
        for (key, path) in Self.storeLimits + Self.peerLimits
        where loaded.limits[keyPath: path] != running.limits[keyPath: path] {
            restartRequired.append(key)
            settings.limits[keyPath: path] = running.limits[keyPath: path]
        }
        for (key, path) in Self.peerTimes where loaded.limits[keyPath: path] != running.limits[keyPath: path]
        {
            restartRequired.append(key)
            settings.limits[keyPath: path] = running.limits[keyPath: path]
        }
        if loaded.localDiscovery != running.localDiscovery {
            restartRequired.append("local_discovery")
            settings.localDiscovery = running.localDiscovery
        }
        if loaded.discoveryPort != running.discoveryPort {
            restartRequired.append("discovery_port")
            settings.discoveryPort = running.discoveryPort
        }
        self.settings = settings
        self.restartRequired = restartRequired.sorted()
    }

    /// Limits the library reads once, when it opens.
    private static let storeLimits: [(String, WritableKeyPath<DaemonLimits, Int> & Sendable)] = [
        ("max_name_bytes", \.maxNameBytes), ("max_photo_bytes", \.maxPhotoBytes),
        ("max_thumbnail_bytes", \.maxThumbnailBytes), ("max_clock_ahead_seconds", \.maxClockAheadSeconds),
    ]

    /// Durations the replication engine and local discovery read once, when they start.
    private static let peerTimes: [(String, WritableKeyPath<DaemonLimits, Duration> & Sendable)] = [
        ("handshake_timeout", \.handshakeTimeout), ("address_check_interval", \.addressCheckInterval),
        ("discovery_interval", \.discoveryInterval),
    ]

    /// Limits the replication engine reads once, when it starts.
    private static let peerLimits: [(String, WritableKeyPath<DaemonLimits, Int> & Sendable)] = [
        ("max_guest_connections", \.maxGuestConnections), ("max_mesh_dials", \.maxMeshDials),
        ("max_incoming_handshakes", \.maxIncomingHandshakes), ("max_frame_bytes", \.maxFrameBytes),
    ]
}
