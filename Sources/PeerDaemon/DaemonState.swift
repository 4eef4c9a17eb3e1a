import Replication
import Store
import Synchronization

/// The running daemon's facts (identity, bound address, paths, start time) and its current
/// settings, which a SIGHUP reload replaces.
///
/// Shared read-mostly by command handlers; the only mutation is `update(settings:)`.
final class DaemonState: Sendable {
    let peerID: PeerID
    let pid: Int32
    let startedAt: ContinuousClock.Instant
    let listenAddress: HostPort
    let configFile: String?
    private let current: Mutex<DaemonSettings>

    init(peerID: PeerID, pid: Int32, listenAddress: HostPort, settings: DaemonSettings, configFile: String?) {
        self.peerID = peerID
        self.pid = pid
        self.startedAt = .now
        self.listenAddress = listenAddress
        self.configFile = configFile
        self.current = Mutex(settings)
    }

    /// The settings in force.
    var settings: DaemonSettings { current.withLock { $0 } }

    /// What share URLs carry: the configured advertised address, else the bound one.
    var advertiseAddress: HostPort { settings.advertise ?? listenAddress }

    /// The advertised address as replication tells it to peers (after every hello).
    var advertisePeerAddress: PeerAddress {
        let address = advertiseAddress
        return PeerAddress(host: address.host, port: address.port)
    }

    var uptime: Duration { .now - startedAt }

    func update(settings: DaemonSettings) {
        current.withLock { $0 = settings }
    }
}

/// What command handlers may use. Handlers capture it when they are registered.
///
/// New services (the replication engine, …) become new fields here, set up in
/// `Daemon.init`, so no handler reaches for a global.
struct DaemonServices: Sendable {
    let state: DaemonState
    let bus: EventBus
    let logger: Logger
    /// Both stores. Handlers hold it only while they run, so it closes after the drain.
    let library: Library
    /// This peer's key and certificate, for dialing other peers (accept).
    let identity: PeerIdentity
    /// The replication engine and its daemon-side hooks.
    let replication: ReplicationHost
    /// The participant's membership upkeep (departures, purges).
    let custodian: ShareCustodian
}
