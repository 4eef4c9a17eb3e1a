import Store

/// What the engine reports as it happens, for the daemon's event stream and for tests.
///
/// Delivered synchronously on the engine's threads (a connection's worker, the dialer):
/// handlers must be quick and must not block.
public enum ReplicationEvent: Sendable, Equatable {
    /// A connection finished its hello and is now the one used with the peer.
    case connected(PeerID, dialedByUs: Bool)
    case disconnected(PeerID, reason: String)
    /// A peer's connection was closed after its hello: it is not a member of any zone shared
    /// here and did not come as a guest (joining, leaving or checking a share).
    case refused(PeerID, reason: String)
    case dialFailed(PeerID, reason: String)
    case changeSetApplied(PeerID, zone: String, refused: Int)
    /// The peer refused changes made here; they were undone here.
    case changesRefused(PeerID, zone: String, refusals: [String])
    case dataFetchStarted(PeerID, hash: ContentHash, offset: Int64, size: Int64)
    case dataFetched(PeerID, hash: ContentHash, size: Int64)
    case dataFetchFailed(PeerID, hash: ContentHash, reason: String)
    case dataServed(PeerID, hash: ContentHash, count: Int)
    /// An uninvited device asked to join a private share owned here: its request waits for
    /// `share approve` or `share deny`.
    case joinRequested(PeerID, zone: String)
}
