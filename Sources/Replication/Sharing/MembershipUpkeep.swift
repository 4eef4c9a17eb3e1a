import Store
import Support

/// The participant's side of membership outside replication: tells owners about shares this
/// peer left, purges copies of shares that were stopped, and — for a zone whose owner is not
/// connected — asks the owner whether the membership still holds, purging the copy when the
/// owner answers that it is over (`SharingRefusalCode.endsMembership`).
///
/// Owned by the engine, which starts it, kicks it (a connection made or lost, a change set
/// applied, a share left, `sync`) and stops it. Runs on a thread of its own: a round at
/// start, at every kick, and every `interval`; a round may wait on the network (a guest
/// connection to an owner), never on an engine lock.
final class MembershipUpkeep: Sendable {
    private let library: Library
    private let identity: PeerIdentity
    /// This device's person's device list, sent with a leave notice so that the owner can
    /// check the signed `leave`.
    private let deviceList: @Sendable () -> [[UInt8]]
    private let logger: ReplicationLogger
    private let interval: Duration
    /// The peers with a replication connection now: their zones need no check.
    private let connectedPeers: @Sendable () -> Set<PeerID>
    /// Called after a round purged a copy, so that replication re-reads membership.
    private let membershipChanged: @Sendable () -> Void
    private let control = Guarded(Control())

    private struct Control {
        var kicked = false
        var stopped = false
        var thread: IOThread?
    }

    /// The longest an owner may take to answer a membership check.
    static let checkTimeout: Duration = .seconds(5)

    init(
        library: Library, identity: PeerIdentity, deviceList: @escaping @Sendable () -> [[UInt8]] = { [] },
        logger: ReplicationLogger,
        interval: Duration,
        connectedPeers: @escaping @Sendable () -> Set<PeerID>,
        membershipChanged: @escaping @Sendable () -> Void
    ) {
        self.library = library
        self.identity = identity
        self.deviceList = deviceList
        self.logger = logger
        self.interval = interval
        self.connectedPeers = connectedPeers
        self.membershipChanged = membershipChanged
    }

    /// Starts the thread, which runs a first round at once.
    func start() {
        let thread = IOThread.start(name: "membership") { [self] in run() }
        control.withLock { $0.thread = thread }
    }

    /// Asks for a round now (after the one under way, if any).
    func kick() {
        control.update { $0.kicked = true }
    }

    /// Ends the thread after the round under way, waiting for it.
    func stop() {
        let thread = control.update { control -> IOThread? in
            control.stopped = true
            return control.thread
        }
        thread?.join()
    }

    private var isStopped: Bool { control.withLock { $0.stopped } }

    private func run() {
        while !isStopped {
            round()
            let goOn = control.wait(
                until: { $0.kicked || $0.stopped }, timeout: interval,
                then: { control in
                    control.kicked = false
                    return !control.stopped
                })
            guard goOn else { return }
        }
    }

    private func round() {
        tellDepartures()
        let stopped = purgeStopped()
        let ended = purgeEndedMemberships()
        if stopped || ended { membershipChanged() }
    }

    /// Tells each owner about shares this peer left, until the owner has answered: every
    /// answer (`left`, or a refusal) means there is nothing more to tell.
    private func tellDepartures() {
        for departure in (try? library.sharedStore.pendingDepartures()) ?? [] {
            guard !isStopped, let address = departure.address.flatMap(PeerAddress.init(parsing:)) else {
                continue
            }
            do {
                try ShareMembership.leave(
                    zone: departure.zone, owner: departure.owner, address: address, identity: identity,
                    library: library, stamp: departure.stamp, deviceList: deviceList())
                try? library.sharedStore.departureAcknowledged(zone: departure.zone)
                logger.log(
                    .info, "told the owner this peer left the share (zone \(departure.zone))",
                    peer: departure.owner)
            } catch {
                logger.log(
                    .debug, "cannot tell the owner about leaving share \(departure.zone) yet: \(error)",
                    peer: departure.owner)
            }
        }
    }

    /// Purges the copies of shares whose owner stopped them (the stop replicated here).
    private func purgeStopped() -> Bool {
        var purged = false
        for share in (try? library.sharedStore.shares()) ?? [] where share.stopped {
            purge(share.zone, because: "the owner stopped sharing it", reason: .stopped)
            purged = true
        }
        return purged
    }

    /// Asks the owners this peer has no connection with whether its memberships still hold.
    private func purgeEndedMemberships() -> Bool {
        let connected = connectedPeers()
        var purged = false
        for zone in (try? library.sharedStore.zoneOwners()) ?? [] {
            guard !isStopped, !connected.contains(zone.owner),
                let address = zone.address.flatMap(PeerAddress.init(parsing:))
            else { continue }
            if MemberAdmission.awaitsRatification(zone.id, library: library) {
                askRatification(of: zone.id, owner: zone.owner, at: address)
                continue
            }
            let answer: JoinResponse
            do {
                answer = try ShareMembership.check(
                    zone: zone.id, owner: zone.owner, address: address, identity: identity,
                    timeout: Self.checkTimeout)
            } catch {
                continue  // The owner is offline: the copy stays until it can answer.
            }
            if case .refused(let code, let message) = answer, code.endsMembership {
                // Joined through a member: the owner knows of it once a member relays the accept.
                if code == .unknownShare, MemberAdmission.awaitsRatification(zone.id, library: library) {
                    logger.log(
                        .info,
                        "the owner of share \(zone.id) has not ratified this device's join through a member yet"
                    )
                    continue
                }
                purge(
                    zone.id, because: message,
                    reason: code == .removed ? .removed : code == .stopped ? .stopped : .ended)
                purged = true
            }
        }
        return purged
    }

    /// This device joined `zone` through a member while the owner was away, and the owner's
    /// records do not name it yet: it shows the owner its signed accept (the owner hears of
    /// it from members too, but they may all be away when it returns). Nothing is purged
    /// here: a refusal is logged, and the owner's records decide once they arrive.
    private func askRatification(of zone: String, owner: PeerID, at address: PeerAddress) {
        let accepts = MemberAdmission.ratificationAccepts(of: zone, identity: identity, library: library)
        guard !accepts.isEmpty else { return }
        let answer: JoinResponse
        do {
            answer = try ShareMembership.ratify(
                zone: zone, accepts: accepts, owner: owner, address: address, identity: identity,
                deviceList: deviceList(), timeout: Self.checkTimeout)
        } catch {
            return  // The owner is offline: asked again next round.
        }
        switch answer {
        case .accepted:
            logger.log(.info, "the owner ratified this device's join of share \(zone), admitted by a member")
            membershipChanged()
        case .refused(_, let message):
            logger.log(.warning, "the owner did not ratify this device's join of share \(zone): \(message)")
        case .acceptTooEarly:
            logger.log(
                .warning,
                "the owner did not ratify this device's join of share \(zone): it dates the accept before "
                    + "its invitation")
        }
    }

    private func purge(_ zone: String, because message: String, reason: LibraryStore.EndReason) {
        do {
            try library.sharedStore.endShare(zone, reason: reason, message: message)
            logger.log(.info, "purged this peer's copy of a share: \(message) (zone \(zone))")
        } catch {
            logger.log(.error, "cannot purge the copy of share \(zone): \(error)")
        }
    }
}
