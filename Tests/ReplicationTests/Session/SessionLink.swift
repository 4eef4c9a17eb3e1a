import Foundation
import Store
import TestSupport
import Testing

@testable import Replication

/// Two sessions wired together in memory, each carrying out its store actions on a real
/// library, with the bytes between them delivered in random pieces: the whole protocol,
/// decoder included, without a socket or a thread.
final class SessionLink {
    /// Used from the test's thread only; Sendable so that effects can call back into it.
    final class Side: @unchecked Sendable {
        let name: String
        var session: SyncSession
        let effects: StoreEffects
        var outgoing: [UInt8] = []
        var closed: SessionCloseReason?
        var notices: [SessionNotice] = []

        init(name: String, session: SyncSession, effects: StoreEffects) {
            self.name = name
            self.session = session
            self.effects = effects
        }

        /// Events the effects result in or deliver later (published data, applied changes),
        /// handled once the current event's actions are all done — as a connection does.
        var deferred: [SessionEvent] = []
        private var depth = 0

        func handle(_ event: SessionEvent, now: ContinuousClock.Instant) {
            depth += 1
            run(session.handle(event, now: now), now: now)
            depth -= 1
            guard depth == 0 else { return }
            while !deferred.isEmpty { handle(deferred.removeFirst(), now: now) }
        }

        func run(_ actions: [SessionAction], now: ContinuousClock.Instant) {
            for action in actions {
                switch action {
                case .send(let frames):
                    for frame in frames { try! frame.encode(into: &outgoing) }
                case .close(let reason): closed = reason
                case .notify(let notice): notices.append(notice)
                case .log, .established: break
                default:
                    // Handled after the current list, as the connection does.
                    deferred.append(contentsOf: effects.perform(action) ?? [])
                }
            }
        }
    }

    let a: Side
    let b: Side
    var random: SeededRandom
    let seed: UInt64
    let now: ContinuousClock.Instant = .now

    /// Links `a` (replicating `zonesA` with `b`) and `b`.
    init(
        a: (Library, [SessionZone]), b: (Library, [SessionZone]), configuration: SessionConfiguration,
        seed: UInt64 = SeededRandom.chooseSeed()
    ) {
        self.seed = seed
        random = SeededRandom(seed: seed)
        let claims = DataClaims()
        let now = self.now
        self.a = Self.side("a", a, b.0, claims, configuration, now)
        self.b = Self.side("b", b, a.0, claims, configuration, now)
    }

    private static func side(
        _ name: String, _ local: (Library, [SessionZone]), _ remote: Library, _ claims: DataClaims,
        _ configuration: SessionConfiguration, _ now: ContinuousClock.Instant
    ) -> Side {
        // Published at once, on this thread: the link stays deterministic.
        let effects = StoreEffects(
            library: local.0, remotePeer: remote.localPeer, claims: claims,
            publish: { blob, done in done(BlobStore.publish([blob])[0]) }, deliver: { _ in },
            background: { $0() }, backgroundIsIdle: { true },
            onDataStored: { _, _ in })
        effects.zones = Dictionary(uniqueKeysWithValues: local.1.map { ($0.zone, $0) })
        let session = SyncSession(
            localPeer: local.0.localPeer, remotePeer: remote.localPeer, zones: local.1,
            configuration: configuration, now: now)
        let side = Side(name: name, session: session, effects: effects)
        effects.deliver = { [weak side] event in side?.deferred.append(event) }
        return side
    }

    func start() {
        for side in [a, b] {
            side.run(side.session.start(now: now), now: now)
            side.handle(.dataWanted(side.effects.missingData()), now: now)
        }
    }

    /// Delivers bytes in random pieces (1 byte to 8 KiB) in random directions until both
    /// sides are quiet. Returns false if it does not settle in `limit` deliveries.
    @discardableResult
    func deliverAll(limit: Int = 1_000_000) -> Bool {
        for _ in 0..<limit {
            let ready = [a, b].filter { !$0.outgoing.isEmpty && $0.closed == nil }
            guard let from = ready.randomElement(using: &random) else { return true }
            let to = from === a ? b : a
            let count = min(from.outgoing.count, Int.random(in: 1...8_192, using: &random))
            let piece = Array(from.outgoing.prefix(count))
            from.outgoing.removeFirst(count)
            to.handle(.bytes(piece), now: now)
        }
        return false
    }

    func commit(zone: String) {
        a.handle(.localCommit(zone: zone), now: now)
        b.handle(.localCommit(zone: zone), now: now)
    }
}
