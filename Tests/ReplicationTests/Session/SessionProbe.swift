import Store
import Testing

@testable import Replication

/// A session under test with a controlled clock, and readers for what it asked for.
struct SessionProbe {
    static let owner = PeerID(digest: [UInt8](repeating: 0xA1, count: 32))!
    static let participant = PeerID(digest: [UInt8](repeating: 0xB2, count: 32))!
    static let zone = "zone-1"

    var session: SyncSession
    var now = ContinuousClock.now
    var last: [SessionAction] = []

    /// A session of the owner with one zone, started, with the participant's hello received.
    init(
        local: PeerID = SessionProbe.owner, remote: PeerID = SessionProbe.participant,
        zones: [SessionZone]? = nil, configuration: SessionConfiguration = SessionConfiguration(),
        established: Bool = true
    ) {
        let list =
            zones ?? [
                SessionZone(
                    zone: Self.zone, store: .private, localIsOwner: true, clock: VectorClock([local: 5]))
            ]
        session = SyncSession(
            localPeer: local, remotePeer: remote, zones: list, configuration: configuration, now: now)
        last = session.start(now: now)
        if established { handle(.frame(Hello(peerID: remote).frame())) }
    }

    @discardableResult
    mutating func handle(_ event: SessionEvent) -> [SessionAction] {
        last = session.handle(event, now: now)
        return last
    }

    @discardableResult
    mutating func receive(_ message: some WireMessage) -> [SessionAction] {
        handle(.frame(message.frame()))
    }

    mutating func advance(_ duration: Duration) { now = now + duration }

    /// The messages the last event sent, decoded.
    var sent: [PeerMessage] { Self.messages(in: last) }

    static func messages(in actions: [SessionAction]) -> [PeerMessage] {
        actions.flatMap { action -> [PeerMessage] in
            guard case .send(let frames) = action else { return [] }
            return frames.compactMap { try? PeerMessage(frame: $0) }
        }
    }

    /// The non-send, non-log actions of the last event.
    var requests: [SessionAction] {
        last.filter {
            switch $0 {
            case .send, .log, .notify: return false
            default: return true
            }
        }
    }

    var closeReason: SessionCloseReason? {
        for case .close(let reason) in last { return reason }
        return nil
    }

    var logs: [String] {
        last.compactMap {
            if case .log(_, let text) = $0 { return text }
            return nil
        }
    }

    static func set(
        _ zone: String = zone, since: VectorClock = VectorClock(), until: VectorClock, objects: Int = 1
    )
        -> ChangeSet
    {
        ChangeSet(
            zone: zone, since: since, until: until,
            objects: (0..<objects).map { index in
                ObjectChange(
                    entity: .tag, id: "tag-\(index)",
                    fields: [
                        FieldChange(
                            field: TagField.name, value: .text("t\(index)"), stamp: Stamp(hlc: 5, peer: owner)
                        )
                    ])
            })
    }
}
