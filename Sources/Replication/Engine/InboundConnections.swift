/// The incoming connections that anyone who can reach the port may open: those still in
/// their TLS handshake or waiting for the hello, and guest connections (a peer joining,
/// leaving or checking a share). Each costs threads and memory before the engine knows
/// whether the peer is a member, so both kinds are bounded in number, and guests in time.
///
/// A plain value kept in `EngineState`, under the engine's lock; the engine carries out
/// what it decides (closing a socket, a connection).
struct InboundConnections: Sendable {
    /// Accepted sockets whose TLS handshake is under way (no connection yet), by ticket,
    /// with the instant each was accepted.
    private(set) var inTLS: [Int: ContinuousClock.Instant] = [:]
    private var lastTicket = 0
    /// Connections past TLS whose hello has not arrived yet, by connection ID, with the
    /// instant their socket was accepted.
    private(set) var awaitingHello: [Int: ContinuousClock.Instant] = [:]
    /// Guest connections, by connection ID, with the instant they are closed at.
    private(set) var guests: [Int: ContinuousClock.Instant] = [:]
    /// Connections closed at accept since the last `takeRefusals()`.
    private(set) var refusedSinceReport = 0
    /// Handshakes cut to make room since the last `takeEvictions()`.
    private(set) var evictedSinceReport = 0
    /// The most connections counted here at once since memory was last given back.
    private(set) var peakSinceTrim = 0
    /// Consecutive `trimDue` checks that found nothing counted here.
    private var quietChecks = 0

    /// Connections counted against `max_incoming_handshakes`.
    var handshakes: Int { inTLS.count + awaitingHello.count }

    /// What becomes of a newly accepted socket.
    enum Admission: Equatable {
        /// It takes a free slot, under `ticket`.
        case admitted(ticket: Int)
        /// It takes the slot of `victim`, the oldest handshake, which the engine cuts.
        case evicting(ticket: Int, victim: Victim)
        /// Every slot is held by a handshake too young to cut: the socket is closed at once.
        case refused
    }

    /// A handshake cut to make room: a socket still in TLS, or a connection without hello.
    enum Victim: Equatable {
        case tls(ticket: Int)
        case awaitingHello(connection: Int)
    }

    /// Takes a handshake slot for a socket accepted `now`. With every one of the `limit`
    /// slots in use, the oldest handshake gives way if it has lasted `evictAfter` already: a
    /// peer's handshake takes milliseconds, so a slot held that long is most likely held by
    /// someone who never finishes, and cutting it keeps the port open to real peers however
    /// many such connections are held (refusing the newcomer instead locked them all out).
    /// Otherwise the newcomer is refused (and counted).
    mutating func beginHandshake(limit: Int, at now: ContinuousClock.Instant, evictAfter: Duration)
        -> Admission
    {
        var victim: Victim?
        if handshakes >= limit {
            let tls = inTLS.min { $0.value < $1.value }
            let hello = awaitingHello.min { $0.value < $1.value }
            let oldest: (Victim, ContinuousClock.Instant)? =
                switch (tls, hello) {
                case (let t?, let h?):
                    t.value <= h.value
                        ? (.tls(ticket: t.key), t.value) : (.awaitingHello(connection: h.key), h.value)
                case (let t?, nil): (.tls(ticket: t.key), t.value)
                case (nil, let h?): (.awaitingHello(connection: h.key), h.value)
                case (nil, nil): nil
                }
            guard let oldest, now - oldest.1 >= evictAfter else {
                refusedSinceReport += 1
                return .refused
            }
            switch oldest.0 {
            case .tls(let ticket): inTLS[ticket] = nil
            case .awaitingHello(let id): awaitingHello[id] = nil
            }
            evictedSinceReport += 1
            victim = oldest.0
        }
        lastTicket += 1
        inTLS[lastTicket] = now
        notePeak()
        return victim.map { .evicting(ticket: lastTicket, victim: $0) } ?? .admitted(ticket: lastTicket)
    }

    /// The TLS handshake under `ticket` ended: with a connection `id` that now waits for the
    /// hello, or with nil when it failed. Nothing when the handshake was cut meanwhile.
    mutating func tlsEnded(ticket: Int, connection id: Int?) {
        guard let accepted = inTLS.removeValue(forKey: ticket) else { return }
        if let id { awaitingHello[id] = accepted }
    }

    /// The hello of connection `id` arrived: its handshake slot is free again.
    mutating func helloArrived(_ id: Int) {
        awaitingHello[id] = nil
    }

    /// Takes a guest slot for connection `id` until `deadline`; false when `limit` guests
    /// are connected.
    mutating func beginGuest(_ id: Int, until deadline: ContinuousClock.Instant, limit: Int) -> Bool {
        guard guests.count < limit else { return false }
        guests[id] = deadline
        notePeak()
        return true
    }

    /// Connection `id` ended: whatever slot it held is free.
    mutating func ended(_ id: Int) {
        awaitingHello[id] = nil
        guests[id] = nil
    }

    /// Guest connections whose time is up.
    func overdueGuests(at now: ContinuousClock.Instant) -> [Int] {
        guests.filter { $0.value <= now }.map(\.key).sorted()
    }

    /// The refusals since the last call, which resets the count.
    mutating func takeRefusals() -> Int {
        defer { refusedSinceReport = 0 }
        return refusedSinceReport
    }

    /// The evictions since the last call, which resets the count.
    mutating func takeEvictions() -> Int {
        defer { evictedSinceReport = 0 }
        return evictedSinceReport
    }

    /// True once after a burst of at least `burst` connections (or any refusal) has been
    /// over for `quietChecks` consecutive calls: the moment to give freed memory back to the
    /// system (threads and buffers of hundreds of connections otherwise stay in the
    /// allocator's arenas).
    mutating func trimDue(burst: Int, quietChecks needed: Int) -> Bool {
        guard handshakes == 0, guests.isEmpty else {
            quietChecks = 0
            return false
        }
        guard peakSinceTrim >= burst else { return false }
        quietChecks += 1
        guard quietChecks >= needed else { return false }
        quietChecks = 0
        peakSinceTrim = 0
        return true
    }

    private mutating func notePeak() {
        peakSinceTrim = max(peakSinceTrim, handshakes + guests.count)
    }
}
