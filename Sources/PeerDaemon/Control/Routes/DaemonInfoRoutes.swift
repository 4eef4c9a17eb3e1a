import ControlProtocol
import Replication

/// `ping`, `id` and `status`: what the daemon is and what it holds, for people and scripts.
extension ControlRoutes {
    mutating func registerDaemonInfo(_ services: DaemonServices) {
        register(.ping) { args in
            return ["pong": true]
        }
        register(.id) { args in
            var answer: [String: JSON] = [
                "peer_id": .string(services.state.peerID.description),
                "person_id": try Self.person(services),
            ]
            answer.merge(Self.ownNames(services)) { _, new in new }
            return .object(answer)
        }
        register(.status) { args in
            return try Self.status(services)
        }
    }

    private static func status(_ services: DaemonServices) throws -> JSON {
        let state = services.state
        let settings = state.settings
        let zones = try ZoneSummary.all(in: services.library)
        let advertised = state.advertiseAddresses.map { JSON.string($0.description) }
        var answer: [String: JSON] = [
            "peer_id": .string(state.peerID.description),
            "person_id": try Self.person(services),
            "listen": .string(state.listenAddress.description),
            "advertise": advertised.first ?? .null,
            "advertise_all": .array(advertised),
            "control_socket": .string(settings.controlSocket),
            "state_dir": .string(settings.stateDirectory),
            "config_file": state.configFile.map(JSON.string) ?? .null,
            "pid": .int(Int(state.pid)),
            "uptime_seconds": .double(Self.seconds(state.uptime)),
            // The old name of uptime_seconds, kept for one release.
            "uptime": .double(Self.seconds(state.uptime)),
            "log_level": .string(settings.logLevel.description),
            "version": .string(PeerShareVersion.string),
            "watchers": .int(services.bus.subscriberCount),
            "zones": .array(zones.map(\.json)),
            "photos": .int(zones.reduce(0) { $0 + $1.photos }),
            "tags": .int(zones.reduce(0) { $0 + $1.tags }),
            "discovery": discoveryJSON(services.replication.discovery),
        ]
        answer.merge(ownNames(services)) { _, new in new }
        return .object(answer)
    }

    /// `person_name` (null until `name set`) and `device_name`, from this person's list.
    private static func ownNames(_ services: DaemonServices) -> [String: JSON] {
        let list = try? LocalPerson.current(in: services.library.privateStore)
        let device = list?.devices.first { $0.id == services.state.peerID }
        return [
            "person_name": list?.personName.map(JSON.string) ?? .null,
            "device_name": device.map { .string($0.name) } ?? .null,
        ]
    }

    /// Local discovery's port and what it heard and ignored (`null` when it is off).
    private static func discoveryJSON(_ discovery: LocalDiscovery?) -> JSON {
        guard let discovery else { return .null }
        let counts = discovery.status
        return [
            "port": .int(Int(discovery.port)), "announced": .int(counts.announced),
            "heard": .int(counts.heard),
            "ignored": [
                "own": .int(counts.own), "strangers": .int(counts.strangers),
                "malformed": .int(counts.malformed),
                "bad_signature": .int(counts.badSignature), "stale": .int(counts.stale),
                "rate_limited": .int(counts.rateLimited),
            ],
        ]
    }

    /// The person this device belongs to now (it changes when the device joins a person or
    /// is removed from one).
    private static func person(_ services: DaemonServices) throws -> JSON {
        try services.library.privateStore.localPerson().map { .string($0.description) } ?? .null
    }

    /// A duration in seconds, to the millisecond.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds * 1000 + attoseconds / 1_000_000_000_000_000) / 1000
    }
}
