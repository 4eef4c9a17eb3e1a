import Store
import Support

/// Everything `peershared` is configured with, once defaults, the config file and flags
/// are combined.
///
/// A plain value: the loader builds it, the daemon reads it, a reload builds a new one.
struct DaemonSettings: Sendable, Equatable {
    /// Where peers connect (TCP); port 0 picks a free port.
    var listen = PeerAddress(host: "0.0.0.0", port: 7733)
    /// Addresses peers should dial, first in share URLs; empty means the bound listen
    /// address, or the interface addresses when it is a wildcard (`AdvertisedAddresses`).
    var advertise: [PeerAddress] = []
    /// The control socket's path.
    var controlSocket: String
    /// Where the stores, identity and lock live.
    var stateDirectory: String
    var logLevel = LogLevel.info
    /// Local discovery: announce this device on the LAN and listen for members' devices.
    var localDiscovery = true
    /// The UDP port local discovery uses (every daemon of the LAN the same).
    var discoveryPort: UInt16 = 21034
    /// Where the local web gallery listens (HTTP); nil when it is off.
    var webListen: PeerAddress? = PeerAddress(host: "127.0.0.1", port: 7734)
    var limits = DaemonLimits()

    init(stateDirectory: String, controlSocket: String) {
        self.stateDirectory = stateDirectory
        self.controlSocket = controlSocket
    }
}

/// The limits that keep bad input (and peers that connect at will) from exhausting the
/// daemon.
///
/// Separate from the addresses and paths because every adapter (control socket, stores,
/// wire protocol) reads its own limit from here and nothing else.
struct DaemonLimits: Sendable, Equatable {
    var maxControlLineBytes = 1 << 20
    var maxControlConnections = 64
    /// Seconds a control connection may stay open without sending a complete request.
    var controlIdleTimeout = 10
    var maxPhotoBytes = 4 << 30
    var maxNameBytes = 1024
    var maxThumbnailBytes = 1 << 20
    var maxFrameBytes = 16 << 20
    var maxClockAheadSeconds = 3600
    var maxIncomingHandshakes = 32
    var maxGuestConnections = 16
    var maxMeshDials = 16
    /// Member devices a share URL lists beside the owner (`ShareURL.members`), so that a
    /// joiner can join through one of them while the owner is away.
    var shareURLMembers = 4
    var handshakeTimeout: Duration = .seconds(10)
    /// How often the advertised addresses are read again (a new network, a new address).
    var addressCheckInterval: Duration = .seconds(30)
    /// How long a device link (`device link`) stays valid.
    var deviceLinkValidity: Duration = .seconds(600)
    /// How often local discovery announces this device (times 1 to 1.5, at random).
    var discoveryInterval: Duration = .seconds(30)
    /// Free space on the state directory's file system under which `doctor` warns.
    var doctorMinFreeBytes = 1 << 30
    /// Requests to join one private share (uninvited accepts) kept waiting for the owner.
    var maxJoinRequests = 64
    /// Connections the web gallery serves at once (each has its own thread); more wait.
    var webMaxConnections = 32
    /// Seconds a gallery connection may stay silent (its live-update stream sends a
    /// keep-alive well within it).
    var webConnectionTimeout = 30
    /// Memory the web server gives one connection for its request line and headers.
    var webConnectionMemoryBytes = 128 << 10
    /// The largest body of a gallery request (an API call's arguments).
    var maxWebRequestBytes = 64 << 10

    /// The limits the stores enforce, which they read once when they open.
    var store: StoreLimits {
        StoreLimits(
            maxNameBytes: maxNameBytes, maxPhotoBytes: Int64(maxPhotoBytes),
            maxThumbnailBytes: maxThumbnailBytes,
            maxClockAheadMilliseconds: UInt64(maxClockAheadSeconds) * 1000, maxJoinRequests: maxJoinRequests)
    }
}
