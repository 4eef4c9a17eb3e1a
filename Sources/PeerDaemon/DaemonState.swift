import Replication
import Store
import Support
import Synchronization

/// The running daemon's facts (identity, bound address, paths, start time) and its current
/// settings, which a SIGHUP reload replaces.
///
/// Shared read-mostly by command handlers; the only mutation is `update(settings:)`. (The
/// person this device belongs to is the library's: it changes when the device joins a person
/// or is removed from one.)
final class DaemonState: Sendable {
    let peerID: PeerID
    let pid: Int32
    let startedAt: ContinuousClock.Instant
    let listenAddress: PeerAddress
    let configFile: String?
    private let current: Mutex<DaemonSettings>
    /// This machine's interface addresses, read when needed: they change (DHCP, Wi-Fi).
    private let interfaces: @Sendable () -> [InterfaceAddress]

    init(
        peerID: PeerID, pid: Int32, listenAddress: PeerAddress, settings: DaemonSettings,
        configFile: String?,
        interfaces: @escaping @Sendable () -> [InterfaceAddress] = InterfaceAddress.current
    ) {
        self.peerID = peerID
        self.pid = pid
        self.startedAt = .now
        self.listenAddress = listenAddress
        self.configFile = configFile
        self.current = Mutex(settings)
        self.interfaces = interfaces
    }

    /// The settings in force.
    var settings: DaemonSettings { current.withLock { $0 } }

    /// Where other peers can dial this daemon, the first in share URLs; empty when it
    /// listens on a wildcard, has no `advertise` setting and no routable interface.
    var advertiseAddresses: [PeerAddress] {
        let wildcard = AdvertisedAddresses.isWildcard(listenAddress.host)
        return AdvertisedAddresses.resolve(
            configured: settings.advertise, bound: listenAddress, interfaces: wildcard ? interfaces() : [])
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
    /// The replication engine (sharing included), as the daemon hosts it.
    let replication: ReplicationHost
    /// The web gallery, as far as it runs.
    let gallery: GalleryAccess
}
