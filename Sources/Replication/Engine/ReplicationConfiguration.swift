import Store
import Support

/// How the engine behaves: session knobs, timers, reconnection, and what it tells the
/// daemon. Defaults suit a daemon; tests shorten the timers.
public struct ReplicationConfiguration: Sendable {
    /// Per-connection protocol settings (keepalive, windows, chunk size…).
    public var session = SessionConfiguration()
    /// How often connections check keepalive and retries, and the dialer its schedule.
    public var tickInterval: Duration = .seconds(1)
    /// How long this side's own signed sets wait before they are offered to its peers, when
    /// the zone's owner is this side or connected to it. The changes themselves went at
    /// commit, as change sets; the sets only serve members relaying while the owner is away,
    /// which none does then. Held, the sets of a burst of commits travel together (each
    /// receiver keeps them in one transaction, with one signature check per author's run),
    /// and after the changes instead of beside them: with fifty receivers on two cores,
    /// keeping the last change's set made the next change wait (SPEC §11's fan-out). With
    /// the owner away they go at once: they are then how the change spreads.
    public var ownSetsDelay: Duration = .milliseconds(100)
    /// First delay before redialing a peer after a failure; doubles up to `reconnectMax`.
    public var reconnectBase: Duration = .seconds(1)
    public var reconnectMax: Duration = .seconds(60)
    /// Each delay is multiplied by a random factor in 1 ± jitter, so peers that lost each
    /// other at the same moment do not redial in lockstep.
    public var reconnectJitter = 0.25
    public var dialTimeout: Duration = .seconds(10)
    /// Longest time from a TCP connection to the agreed hellos: the TLS handshake and the
    /// hello exchange together. An incoming connection past it is closed; a guest
    /// connection (joining, leaving or checking a share) gets as long again to be answered.
    public var handshakeTimeout: Duration = .seconds(10)
    /// Incoming connections in their TLS handshake or waiting for the hello at once; more
    /// are closed as soon as they are accepted, before any thread is spent on them.
    public var maxIncomingHandshakes = 32
    /// Guest connections (a peer joining, leaving or checking a share) open at once; more
    /// are closed after their hello with error code 8 (busy).
    public var maxGuestConnections = 16
    /// How many fellow participants of shared zones this side dials (the mesh); the others
    /// may dial it. With each member dialing this many, a member holds at least about twice
    /// as many mesh connections (a limit on dials, not on connections: one made while fewer
    /// fellows were known stays).
    public var maxMeshDials = 16
    /// Longest a write may wait for the peer to take data before the connection is dropped.
    public var writeTimeout: Duration = .seconds(30)
    /// Received bytes a connection may queue before its reader waits.
    public var inboxByteLimit = 48 << 20
    /// How often membership is re-read from the stores even without a change notice.
    public var membershipRefreshInterval: Duration = .seconds(30)
    /// How often, besides the moments something may have changed it (a connection made or
    /// lost, a change set applied, `sync`), this peer tells owners about shares it left and
    /// asks the owners it is not connected to whether its memberships still hold.
    public var membershipCheckInterval: Duration = .seconds(15)
    /// How long `stop()` lets connections say goodbye before cutting them.
    public var stopGrace: Duration = .seconds(2)
    /// Where this peer listens for others, best first: told to every peer after the hello so
    /// that members can dial it. Empty: the address the engine listens on itself, if any.
    /// Asked once per connection, so a reloaded setting applies to the next connections.
    public var advertisedAddresses: @Sendable () -> [PeerAddress] = { [] }
    /// How often the advertised addresses are read again (the machine's interfaces may have
    /// changed): a change makes a new signed address record, sent to every peer at once.
    public var addressCheckInterval: Duration = .seconds(30)
    /// Receives `ReplicationEvent`s; runs on engine threads and must not block.
    public var onEvent: @Sendable (ReplicationEvent) -> Void = { _ in }

    public init() {}
}
