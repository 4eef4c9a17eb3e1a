import ControlProtocol
import FoundationEssentials
import Glibc
import Replication
import Store
import Support

/// Hosts the replication engine in the daemon: builds it from the identity, library and
/// settings, feeds it the peer listener's connections and the advertised address, and turns
/// its events into `watch` events and log lines. Sharing (joining, leaving, answering
/// guests, purging ended copies) is the engine's own.
final class ReplicationHost: Sendable {
    let engine: ReplicationEngine
    /// Local discovery, when it is on and its port could be bound.
    let discovery: LocalDiscovery?

    init(
        identity: PeerIdentity, library: Library, limits: DaemonLimits, bus: EventBus, logger: Logger,
        discovery discoverySettings: LocalDiscovery.Settings?,
        advertised: @escaping @Sendable () -> [PeerAddress]
    ) throws {
        var configuration = ReplicationConfiguration()
        configuration.advertisedAddresses = advertised
        configuration.maxIncomingHandshakes = limits.maxIncomingHandshakes
        configuration.maxGuestConnections = limits.maxGuestConnections
        configuration.maxMeshDials = limits.maxMeshDials
        configuration.handshakeTimeout = limits.handshakeTimeout
        configuration.addressCheckInterval = limits.addressCheckInterval
        configuration.session.maximumFrameSize = limits.maxFrameBytes
        configuration.onEvent = { event in
            if let published = ReplicationHost.controlEvent(event) { bus.publish(published) }
        }
        let replicationLogger = ReplicationLogger(minimumLevel: .info) { record in
            var metadata: [String: String] = [:]
            if let peer = record.peer { metadata["peer"] = peer.short }
            switch record.level {
            case .error: logger.error(record.message, metadata)
            case .warning: logger.warning(record.message, metadata)
            case .debug: logger.debug(record.message, metadata)
            case .info, .notice: logger.info(record.message, metadata)
            }
        }
        engine = ReplicationEngine(
            library: library, identity: identity, configuration: configuration, logger: replicationLogger)
        try engine.start()
        var discovery: LocalDiscovery?
        if let discoverySettings {
            do {
                discovery = try LocalDiscovery(engine: engine, settings: discoverySettings)
            } catch {
                logger.warning(
                    "local discovery is off: \(error)", ["discovery_port": "\(discoverySettings.port)"])
            }
        }
        self.discovery = discovery
        discovery?.start()
    }

    func stop() {
        discovery?.stop()
        engine.stop()
    }

    /// The `watch` form of an engine event; photo-data chunks served are too many to show.
    static func controlEvent(_ event: ReplicationEvent) -> ControlEvent? {
        func peer(_ id: PeerID) -> JSON { .string(id.description) }
        switch event {
        case .connected(let id, let dialed):
            return ControlEvent(
                type: "peer.connected", data: ["id": peer(id), "peer_id": peer(id), "dialed": .bool(dialed)])
        case .disconnected(let id, let reason):
            return ControlEvent(
                type: "peer.disconnected",
                data: ["id": peer(id), "peer_id": peer(id), "reason": .string(reason)])
        case .refused(let id, let reason):
            return ControlEvent(
                type: "peer.refused", data: ["id": peer(id), "peer_id": peer(id), "reason": .string(reason)])
        case .dialFailed(let id, let reason):
            return ControlEvent(
                type: "peer.dial_failed",
                data: ["id": peer(id), "peer_id": peer(id), "reason": .string(reason)])
        case .changeSetApplied(let id, let zone, let refused):
            return ControlEvent(
                type: "sync.applied",
                data: ["peer_id": peer(id), "zone": .string(zone), "refused": .int(refused)])
        case .changesRefused(let id, let zone, let refusals):
            return ControlEvent(
                type: "sync.refused",
                data: [
                    "peer_id": peer(id), "zone": .string(zone), "refused": .array(refusals.map(JSON.string)),
                ])
        case .dataFetched(let id, let hash, let size):
            return ControlEvent(
                type: "data.fetched",
                data: ["peer_id": peer(id), "sha256": .string("\(hash)"), "size": .int(Int(size))])
        case .dataFetchFailed(let id, let hash, let reason):
            return ControlEvent(
                type: "data.failed",
                data: ["peer_id": peer(id), "sha256": .string("\(hash)"), "reason": .string(reason)])
        case .joinRequested(let id, let zone):
            return ControlEvent(
                type: "share.request", data: ["id": peer(id), "peer_id": peer(id), "share": .string(zone)])
        case .dataFetchStarted, .dataServed:
            return nil
        }
    }
}

extension DaemonSettings {
    /// What local discovery runs with; nil when it is off.
    var discoverySettings: LocalDiscovery.Settings? {
        guard localDiscovery else { return nil }
        var discovery = LocalDiscovery.Settings()
        discovery.port = discoveryPort
        discovery.interval = limits.discoveryInterval
        return discovery
    }
}
