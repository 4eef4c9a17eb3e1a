import ControlProtocol
import Foundation
import Replication
import Store
import Support

/// Hosts the replication engine in the daemon: builds it from the identity and library,
/// feeds it the peer listener's connections and the advertised address, answers sharing
/// messages, and turns its events into `watch` events and log lines.
final class ReplicationHost: Sendable {
    let engine: ReplicationEngine
    private let library: Library

    init(
        identity: PeerIdentity, library: Library, limits: DaemonLimits, bus: EventBus, logger: Logger,
        advertised: @escaping @Sendable () -> [PeerAddress],
        onEvent: @escaping @Sendable (ReplicationEvent) -> Void = { _ in }
    ) throws {
        var configuration = ReplicationConfiguration()
        configuration.advertisedAddresses = advertised
        configuration.maxIncomingHandshakes = limits.maxIncomingHandshakes
        configuration.maxGuestConnections = limits.maxGuestConnections
        configuration.handshakeTimeout = limits.handshakeTimeout
        configuration.session.maximumFrameSize = limits.maxFrameBytes
        // Anyone may come with a share URL: TLS lets every peer in, the session then keeps
        // members, answers guests (join, leave, check) and drops everyone else.
        configuration.extraAdmission = { _ in true }
        configuration.onSharingFrame = { frame, peer in
            JoinHandler.answer(frame, from: peer, library: library)
        }
        configuration.onEvent = { event in
            onEvent(event)
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
        self.library = library
        engine = ReplicationEngine(
            library: library, identity: identity, configuration: configuration, logger: replicationLogger)
        try engine.start()
    }

    /// After a membership change made outside a commit the engine sees (accept, purge): the
    /// engine re-reads membership and the members' addresses (owners' from the share URLs).
    func membershipChanged() {
        engine.refreshMembership()
    }

    func stop() { engine.stop() }

    /// The `watch` form of an engine event; photo-data chunks served are too many to show.
    static func controlEvent(_ event: ReplicationEvent) -> ControlEvent? {
        func peer(_ id: PeerID) -> JSON { .string(id.description) }
        switch event {
        case .connected(let id, let dialed):
            return ControlEvent(type: "peer.connected", data: ["peer_id": peer(id), "dialed": .bool(dialed)])
        case .disconnected(let id, let reason):
            return ControlEvent(
                type: "peer.disconnected", data: ["peer_id": peer(id), "reason": .string(reason)])
        case .refused(let id, let reason):
            return ControlEvent(type: "peer.refused", data: ["peer_id": peer(id), "reason": .string(reason)])
        case .dialFailed(let id, let reason):
            return ControlEvent(
                type: "peer.dial_failed", data: ["peer_id": peer(id), "reason": .string(reason)])
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
        case .dataFetchStarted, .dataServed:
            return nil
        }
    }
}
