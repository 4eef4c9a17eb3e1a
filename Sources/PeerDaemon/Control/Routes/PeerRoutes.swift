import ControlProtocol
import FoundationEssentials
import Glibc
import Replication
import Store

/// `peers`, `sync`, `pause`, `resume`: replication with the other daemons.
extension ControlRoutes {
    mutating func registerPeers(_ services: DaemonServices) {
        let engine = services.replication.engine
        register(.peers) { args in
            let names = DisplayNames(engine.library.privateStore)
            return .array(engine.peers().map { $0.json(names.of($0.peer)) })
        }
        register(.sync) { args in
            engine.syncNow()
            guard try args.bool("wait", default: false) else { return ["started": true] }
            let seconds = try args.optionalInt("timeout") ?? 60
            guard seconds > 0 else {
                throw ControlError(.invalidArguments, "sync: timeout must be at least 1 second")
            }
            let deadline = Date().addingTimeInterval(Double(seconds))
            var status = engine.syncStatus()
            while !status.inSync {
                guard Date() < deadline else {
                    let behind = status.reasons.sorted { $0.key < $1.key }.map {
                        "\($0.key.short) (\($0.value))"
                    }
                    throw ControlError(
                        ControlError.Code(rawValue: "timeout"),
                        "not in sync after \(seconds) s (peers not in sync: \(behind.joined(separator: ", ")))"
                    )
                }
                usleep(2_000)  // a cheap check; answering promptly matters more
                status = engine.syncStatus()
            }
            let refused = engine.takeRefusedChanges()
            guard refused.isEmpty else {
                // In sync, but not with what was done here: say so, and what was undone.
                let shown = refused.prefix(5).map(\.description).joined(separator: "; ")
                let more = refused.count > 5 ? "; and \(refused.count - 5) more" : ""
                throw ControlError(
                    .changesRefused,
                    "in sync, but \(refused.count) change(s) made here were refused and undone: \(shown)\(more)"
                )
            }
            // Members that could not be reached since this call are reported, not waited on.
            let unreachable = status.unreachable.map { member -> JSON in
                [
                    "id": .string(member.peer.description), "peer_id": .string(member.peer.description),
                    "reason": .string(member.reason),
                ]
            }
            return ["in_sync": true, "unreachable": .array(unreachable)]
        }
        for (command, pausing) in [(ControlCommand.pause, true), (.resume, false)] {
            register(command) { args in
                let peer = try args.optionalString("peer").map { try Self.knownPeer($0, engine: engine) }
                if pausing { engine.pause(peer) } else { engine.resume(peer) }
                return ["paused": .bool(pausing), "peer_id": peer.map { .string($0.description) } ?? .null]
            }
        }
    }

    /// A peer the engine knows, by its full ID or a unique prefix.
    static func knownPeer(_ reference: String, engine: ReplicationEngine) throws -> PeerID {
        try PeerReference.resolve(reference, among: engine.peers().map(\.peer), kind: "peer")
    }
}

extension PeerStatus {
    /// The `peers` JSON of one peer, with its names as its person's signed list gives them.
    func json(_ names: DisplayNames.Names) -> JSON {
        [
            "id": .string(peer.description), "peer_id": .string(peer.description),
            "person_id": names.person.map { .string($0.description) } ?? .null,
            "device_name": names.deviceName.map(JSON.string) ?? .null,
            "person_name": names.personName.map(JSON.string) ?? .null,
            "address": address.map { .string($0.description) } ?? .null,
            "connected": .bool(connected), "paused": .bool(paused),
            "last_seen": JSONTime.json(milliseconds: lastSeen),
            "connected_since": JSONTime.json(milliseconds: connectedSince), "bytes_in": .int(bytesIn),
            "bytes_out": .int(bytesOut), "zones": .array(zones.map(JSON.string)), "in_sync": .bool(inSync),
            "behind": behind.map(JSON.string) ?? .null,
            "pending_data": .int(pendingData), "last_error": lastError.map(JSON.string) ?? .null,
            "addresses": .array(
                addresses.map { known in
                    [
                        "address": .string(known.address.description), "source": .string(known.source),
                        "in_use": .bool(known.inUse),
                        "last_confirmed": JSONTime.json(milliseconds: known.lastConfirmed),
                    ]
                }),
            "neighbours": neighbours.map { .array($0.map { .string($0.description) }) } ?? .null,
        ]
    }
}
