/// When to ping a quiet connection and when to give up on a silent one.
///
/// Any frame received proves the peer alive; a ping goes out only when this side has sent
/// nothing for the ping interval, so a busy connection carries no keepalive traffic.
struct Keepalive: Sendable {
    let pingInterval: Duration
    let silenceTimeout: Duration
    private(set) var lastReceived: ContinuousClock.Instant
    private(set) var lastSent: ContinuousClock.Instant
    private var nonce: UInt64 = 0

    enum Decision: Equatable {
        case nothing
        case ping(UInt64)
        case dead(silentFor: Duration)
    }

    init(pingInterval: Duration, silenceTimeout: Duration, now: ContinuousClock.Instant) {
        self.pingInterval = pingInterval
        self.silenceTimeout = silenceTimeout
        lastReceived = now
        lastSent = now
    }

    mutating func received(at now: ContinuousClock.Instant) { lastReceived = max(lastReceived, now) }

    mutating func sent(at now: ContinuousClock.Instant) { lastSent = max(lastSent, now) }

    mutating func check(at now: ContinuousClock.Instant) -> Decision {
        let silence = now - lastReceived
        if silence >= silenceTimeout { return .dead(silentFor: silence) }
        guard now - lastSent >= pingInterval else { return .nothing }
        nonce &+= 1
        return .ping(nonce)
    }
}
