import Glibc
import Replication
import Store
import Support

/// What `doctor` looks at, gathered once per request: the daemon's addresses and paths, the
/// engine's view of its peers, the newest stamp each peer sent, the environment and the
/// time. The checks (`Doctor`) are pure functions of it.
struct DoctorFacts: Sendable {
    var listen: PeerAddress
    var advertised: [PeerAddress]
    /// Hosts that are this machine: its interface addresses, loopback aside.
    var localHosts: Set<String>
    var peers: [PeerStatus]
    /// The newest HLC of each peer's own changes this library holds, over the zones shared
    /// with it (`VectorClock` entries).
    var newestStamps: [PeerID: UInt64]
    var stateDirectory: String
    var controlSocket: String
    var environment: [String: String]
    var minFreeBytes: Int
    /// How far ahead of this clock a change may be stamped before the stores refuse it.
    var maxClockAheadMilliseconds: UInt64
    var nowMilliseconds: UInt64
    /// The user the daemon runs as.
    var uid: UInt32
}

extension DoctorFacts {
    /// Reads the facts from the running daemon.
    static func gather(_ services: DaemonServices, environment: [String: String]) -> DoctorFacts {
        let state = services.state
        let settings = state.settings
        let peers = services.replication.engine.peers()
        var newest: [PeerID: UInt64] = [:]
        for peer in peers {
            for zone in peer.zones {
                for store in services.library.stores {
                    guard let clock = try? store.clock(of: zone) else { continue }
                    newest[peer.peer] = max(newest[peer.peer] ?? 0, clock[peer.peer])
                }
            }
        }
        return DoctorFacts(
            listen: state.listenAddress, advertised: state.advertiseAddresses,
            localHosts: Set(InterfaceAddress.current().map(\.address)), peers: peers, newestStamps: newest,
            stateDirectory: settings.stateDirectory, controlSocket: settings.controlSocket,
            environment: environment, minFreeBytes: settings.limits.doctorMinFreeBytes,
            maxClockAheadMilliseconds: UInt64(settings.limits.maxClockAheadSeconds) * 1000,
            nowMilliseconds: HybridLogicalClock.wallMilliseconds(), uid: getuid())
    }
}
