/// The incoming connections that anyone who can reach the port may open: those still in
/// their TLS handshake or waiting for the hello, and guest connections (a peer joining,
/// leaving or checking a share). Each costs threads and memory before the engine knows
/// whether the peer is a member, so both kinds are bounded in number, and guests in time.
///
/// A plain value kept in `EngineState`, under the engine's lock; the engine carries out
/// what it decides (closing a socket, a connection).
struct InboundConnections: Sendable {
    /// Accepted sockets whose TLS handshake is under way (no connection yet).
    private(set) var inTLS = 0
    /// Connections past TLS whose hello has not arrived yet, by connection ID.
    private(set) var awaitingHello: Set<Int> = []
    /// Guest connections, by connection ID, with the instant they are closed at.
    private(set) var guests: [Int: ContinuousClock.Instant] = [:]
    /// Connections closed at accept since the last `takeRefusals()`.
    private(set) var refusedSinceReport = 0
    /// The most connections counted here at once since memory was last given back.
    private(set) var peakSinceTrim = 0
    /// Consecutive `trimDue` checks that found nothing counted here.
    private var quietChecks = 0

    /// Connections counted against `max_incoming_handshakes`.
    var handshakes: Int { inTLS + awaitingHello.count }

    /// Takes a handshake slot for a newly accepted socket; false (and the refusal is counted)
    /// when `limit` are in use: the socket is then to be closed at once.
    mutating func beginHandshake(limit: Int) -> Bool {
        guard handshakes < limit else {
            refusedSinceReport += 1
            return false
        }
        inTLS += 1
        notePeak()
        return true
    }

    /// The TLS handshake of an accepted socket ended: with a connection `id` that now waits
    /// for the hello, or with nil when it failed.
    mutating func tlsEnded(connection id: Int?) {
        inTLS -= 1
        if let id { awaitingHello.insert(id) }
    }

    /// The hello of connection `id` arrived: its handshake slot is free again.
    mutating func helloArrived(_ id: Int) {
        awaitingHello.remove(id)
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
        awaitingHello.remove(id)
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
