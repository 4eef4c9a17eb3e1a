import Store

/// The sending side of one zone on one connection: what the peer is believed to hold, and
/// whether changes must be computed again.
///
/// `remote` is a lower bound of the peer's clock: set from its zone clocks, raised by its
/// answers, by the sets it sent (it holds their `until`) and by the sets sent to it (as the
/// peer will merge them). Computing changes from a lower bound is always safe: at worst the
/// peer receives something twice, which applying ignores.
struct ZoneReplication: Sendable {
    var info: SessionZone
    /// Nil until the peer has announced the zone in its zone clocks.
    var remote: VectorClock?
    /// Bumped whenever `remote` is reset, so that answers and prepared sets computed from an
    /// older belief are recognised and dropped.
    var generation = 0
    var preparing = false
    var dirty = false
    var batchSize: Int
    /// A single transaction's changes do not fit in a frame: nothing more is sent.
    var stalled = false
    /// What the peer has been told of this side's clock (the zone clocks announced, and the
    /// `until` of every set sent): a set carrying nothing the peer lacks still goes when it
    /// would tell more, or the peer would believe this side behind (the owner's clock moved
    /// by changes the peer had taken from their author directly, say).
    var told = VectorClock()
    /// What the peer holds of the zone's signed sets, as far as this side knows (its set
    /// vector, raised by the sets sent to it and received from it); nil until it sends it.
    var setsRemote: SeqVector?
    var setsDirty = false
    var setsPreparing = false
    /// Signed-sets messages sent and not answered yet (only counted when the hellos agreed
    /// on `setAcks`): while there are `setsWindow`, no more are read.
    var setsUnanswered = 0

    init(info: SessionZone, batchSize: Int) {
        self.info = info
        self.batchSize = batchSize
    }

    /// The peer's clock once it has applied `set` from this side. The owner vouches for
    /// everything it relays (and a device to another of its person); a participant's
    /// `until` counts only for its own entry.
    func expected(after set: ChangeSet, localPeer: PeerID) -> VectorClock {
        let base = remote ?? VectorClock()
        if info.sendsWhole { return base.merged(with: set.until) }
        return base.merged(with: VectorClock([localPeer: set.until[localPeer]]))
    }
}
