import Dispatch
import Foundation
import Replication
import Store

/// The participant's side of membership, outside replication: tells owners about shares
/// this peer left, purges copies of shares that were stopped, and — when an owner stops
/// replicating with this peer — asks it whether the membership still holds, purging the
/// copy when the owner answers that this peer was removed.
///
/// Runs on its own thread: a round at start, whenever `kick()` is called (a departure, a
/// disconnection, an applied change set) and every `interval`.
final class ShareCustodian: @unchecked Sendable {
    private let library: Library
    private let identity: PeerIdentity
    private let logger: Logger
    private let interval: Duration
    private let wake = DispatchSemaphore(value: 0)
    private let stopSignal = StopSignal()
    private let done = DispatchGroup()
    private let lock = NSLock()
    private var host: ReplicationHost?

    init(library: Library, identity: PeerIdentity, logger: Logger, interval: Duration = .seconds(15)) {
        self.library = library
        self.identity = identity
        self.logger = logger
        self.interval = interval
    }

    func start(host: ReplicationHost) {
        lock.withLock { self.host = host }
        done.enter()
        let thread = Thread { @Sendable [self] in
            defer { done.leave() }
            while !stopSignal.isFired {
                round()
                let seconds = Double(interval.components.seconds)
                _ = wake.wait(timeout: .now() + seconds)
            }
        }
        thread.name = "share-custodian"
        thread.start()
    }

    /// Asks for a round now.
    func kick() { wake.signal() }

    func stop() {
        stopSignal.fire()
        wake.signal()
        done.wait()
    }

    private func round() {
        guard let host = lock.withLock({ host }) else { return }
        var changed = false
        changed = tellDepartures() || changed
        changed = purgeStopped() || changed
        changed = checkDisconnectedMemberships(host) || changed
        if changed { host.membershipChanged() }
    }

    private func tellDepartures() -> Bool {
        for departure in (try? library.sharedStore.pendingDepartures()) ?? [] {
            let owner = departure.owner
            guard !stopSignal.isFired, let address = departure.address.flatMap(PeerAddress.init(parsing:))
            else { continue }
            do {
                try ShareMembership.leave(
                    zone: departure.zone, owner: owner, address: address, identity: identity)
                try? library.sharedStore.departureAcknowledged(zone: departure.zone)
                logger.info(
                    "told the owner this peer left the share", ["zone": departure.zone, "peer": owner.short])
            } catch {
                if case .refused = error {
                    try? library.sharedStore.departureAcknowledged(zone: departure.zone)
                }
                logger.debug("cannot tell the owner about leaving yet: \(error)", ["zone": departure.zone])
            }
        }
        return false
    }

    private func purgeStopped() -> Bool {
        var purged = false
        for share in (try? library.sharedStore.shares()) ?? [] where share.stopped {
            purge(share.zone, because: "the owner stopped sharing it")
            purged = true
        }
        return purged
    }

    private func checkDisconnectedMemberships(_ host: ReplicationHost) -> Bool {
        let connected = Set(host.engine.peers().filter(\.connected).map(\.peer))
        var purged = false
        for zone in (try? library.sharedStore.zoneOwners()) ?? [] {
            let owner = zone.owner
            guard !stopSignal.isFired, !connected.contains(owner),
                let address = zone.address.flatMap(PeerAddress.init(parsing:))
            else { continue }
            let answer: JoinResponse
            do {
                answer = try ShareMembership.check(
                    zone: zone.id, owner: owner, address: address, identity: identity, timeout: .seconds(5))
            } catch {
                continue  // The owner is offline: the copy stays until it can answer.
            }
            if case .refused(let code, let message) = answer, code.endsMembership {
                purge(zone.id, because: message)
                purged = true
            }
        }
        return purged
    }

    private func purge(_ zone: String, because reason: String) {
        do {
            try library.sharedStore.purge(zone: zone)
            logger.info("purged this peer's copy of a share: \(reason)", ["zone": zone])
        } catch {
            logger.error("cannot purge the copy of share \(zone): \(error)")
        }
    }
}
