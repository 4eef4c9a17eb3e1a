import Store
import Support
import Synchronization

/// Local discovery: this device broadcasts its signed address record on the LAN (UDP, at
/// start, when it changes, and every `interval` with jitter), and listens for other devices'
/// records, so that devices of members on one network find each other without a URL or a
/// member in between (docs/PROTOCOL.md §11).
///
/// Why bounded: anyone on the LAN can send anything to the port. One socket and one thread;
/// datagrams over `DiscoveryPacket.maximumBytes` are dropped; each source address gets a
/// small budget of packets; a record is looked at only if its device is a member of a zone
/// held here, and its signature checked only then. What it cannot use is counted
/// (`DiscoveryCounts`), never logged per packet.
public final class LocalDiscovery: @unchecked Sendable {
    /// Where and how often.
    public struct Settings: Sendable {
        public var port: UInt16 = 21034
        public var interval: Duration = .seconds(30)
        /// Most source addresses whose packet budgets are tracked at once; packets from
        /// further sources wait until one expires.
        public var maxSources = 256
        public init() {}
    }

    public let settings: Settings
    private let engine: ReplicationEngine
    private let interfaces: @Sendable () -> [InterfaceAddress]
    private let socket: UDPSocket
    private let wake = WakePipe()
    private let stopped = Atomic(false)
    private let counts = Mutex(DiscoveryCounts())
    private var thread: IOThread?

    /// Binds the port (shared with other daemons of this machine); throws when it cannot.
    public init(
        engine: ReplicationEngine, settings: Settings,
        interfaces: @escaping @Sendable () -> [InterfaceAddress] = InterfaceAddress.current
    ) throws(SocketError) {
        self.engine = engine
        self.settings = settings
        self.interfaces = interfaces
        socket = try UDPSocket(port: settings.port)
    }

    /// The bound port.
    public var port: UInt16 { socket.port }

    /// What was heard and ignored so far.
    public var status: DiscoveryCounts { counts.withLock { $0 } }

    public func start() {
        thread = IOThread.start(name: "discovery") { [self] in run() }
        engine.logger.log(.info, "local discovery on UDP port \(socket.port)")
    }

    public func stop() {
        stopped.store(true, ordering: .relaxed)
        wake.wake()
        thread?.join()
    }

    /// Announces now (this device's addresses changed).
    public func announceSoon() { wake.wake() }

    private func run() {
        var budgets = SourceBudgets(maxSources: settings.maxSources)
        var nextAnnounce = ContinuousClock.now
        var announcedVersion: UInt64?
        while !stopped.load(ordering: .relaxed) {
            // Wakes at least once a second to see whether this device's record changed.
            let wait = min(.seconds(1), max(.zero, nextAnnounce - .now))
            let ready = Poll.readable([socket.fd, wake.fd], timeout: wait)
            if stopped.load(ordering: .relaxed) { return }
            if ready.contains(1) {
                wake.drain()
                nextAnnounce = .now
            }
            if ready.contains(0) {
                // A bounded batch per wake-up, so that a flood cannot starve announcing.
                for _ in 0..<64 {
                    guard let datagram = socket.receive(maximumBytes: DiscoveryPacket.maximumBytes) else {
                        break
                    }
                    let outcome =
                        budgets.spend(datagram.host, now: .now)
                        ? handle(datagram.bytes, from: datagram.host, truncated: datagram.truncated)
                        : .rateLimited
                    counts.withLock { $0.count(outcome) }
                }
            }
            let version = engine.ownAddressRecord?.version
            if ContinuousClock.now >= nextAnnounce || version != announcedVersion {
                announcedVersion = version
                announce()
                let jitter = Double.random(in: 1...1.5)
                nextAnnounce = .now + settings.interval * jitter
            }
        }
    }

    private func handle(_ bytes: [UInt8], from host: String, truncated: Bool) -> DiscoveryOutcome {
        guard !truncated, let packet = try? DiscoveryPacket(decoding: bytes) else { return .malformed }
        return engine.discovered(packet.record, from: host, expiry: settings.interval * 3)
    }

    /// Sends this device's record to the broadcast address of every IPv4 interface that has
    /// one, and to 255.255.255.255; only when it lists an address another machine can dial.
    private func announce() {
        guard let record = engine.ownAddressRecord,
            record.addresses.contains(where: { !Self.isLoopback($0.host) })
        else { return }
        let bytes = DiscoveryPacket(record).encoded
        guard bytes.count <= DiscoveryPacket.maximumBytes else {
            engine.logger.log(
                .warning, "the address record is too large for a discovery packet (\(bytes.count) bytes)")
            return
        }
        let targets = Set(
            interfaces().filter { $0.isUp && !$0.isLoopback && $0.family == .ipv4 }.compactMap(\.broadcast)
                + ["255.255.255.255"])
        var sent = 0
        for target in targets.sorted() where socket.send(bytes, to: target, port: settings.port) { sent += 1 }
        counts.withLock { $0.announced += sent > 0 ? 1 : 0 }
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1"
    }
}

/// What local discovery did with what it heard, for `status`.
public struct DiscoveryCounts: Sendable, Equatable {
    /// Announcements sent.
    public var announced = 0
    /// Records of members taken (new addresses, or confirmed again).
    public var heard = 0
    /// This device's own announcements, heard back.
    public var own = 0
    /// Devices that are no member of anything here.
    public var strangers = 0
    /// Not a discovery packet, or truncated.
    public var malformed = 0
    /// A member's device ID with a signature that does not check.
    public var badSignature = 0
    /// An older record than the one held (a replay).
    public var stale = 0
    /// Over a source's packet budget.
    public var rateLimited = 0

    mutating func count(_ outcome: DiscoveryOutcome) {
        switch outcome {
        case .heard: heard += 1
        case .own: own += 1
        case .stranger: strangers += 1
        case .malformed: malformed += 1
        case .badSignature: badSignature += 1
        case .stale: stale += 1
        case .rateLimited: rateLimited += 1
        }
    }
}

/// What became of one discovery packet.
public enum DiscoveryOutcome: Sendable, Equatable {
    case heard, own, stranger, malformed, badSignature, stale, rateLimited
}

/// A packet budget per source address: a burst of `burst`, then one per `refill`; at most
/// `maxSources` sources tracked, each forgotten once its budget is full again.
struct SourceBudgets {
    let maxSources: Int
    var burst = 8.0
    var refill: Duration = .seconds(1)
    private var tokens: [String: (count: Double, at: ContinuousClock.Instant)] = [:]

    init(maxSources: Int) {
        self.maxSources = maxSources
    }

    /// Whether `source` may send one more packet `now`; spends it if so.
    mutating func spend(_ source: String, now: ContinuousClock.Instant) -> Bool {
        if tokens.count >= maxSources, tokens[source] == nil {
            tokens = tokens.filter { level(of: $0.value, now: now) < burst }
            guard tokens.count < maxSources else { return false }
        }
        let available = tokens[source].map { level(of: $0, now: now) } ?? burst
        guard available >= 1 else { return false }
        tokens[source] = (available - 1, now)
        return true
    }

    private func level(of entry: (count: Double, at: ContinuousClock.Instant), now: ContinuousClock.Instant)
        -> Double
    {
        min(burst, entry.count + (now - entry.at) / refill)
    }
}
