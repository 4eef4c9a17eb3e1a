import Store

/// A zone one connection replicates, as the session needs to know it.
public struct SessionZone: Hashable, Sendable {
    public var zone: String
    /// The store holding the zone locally.
    public var store: StoreKind
    /// True when this peer owns the zone (the other side is a participant): the owner sends
    /// everything and the participant vouches only for its own changes.
    public var localIsOwner: Bool
    /// True when the peer owns the zone. Neither side does between fellow participants (the
    /// mesh): each sends only its own changes, and a refusal does not undo anything.
    public var peerIsOwner: Bool
    /// True when this side sends everything it holds of the zone (and vouches for all of
    /// it): the owner, and another device of the same person (a person's devices take each
    /// other's copies whole). Otherwise it sends only what it wrote itself.
    public var sendsWhole: Bool
    /// This peer's clock of the zone when it joined the session.
    public var clock: VectorClock
    /// The signed sets of the zone this peer held then, per author (what it tells the peer).
    public var seqs: SeqVector

    public init(
        zone: String, store: StoreKind, localIsOwner: Bool, peerIsOwner: Bool? = nil, sendsWhole: Bool? = nil,
        clock: VectorClock, seqs: SeqVector = SeqVector()
    ) {
        self.zone = zone
        self.store = store
        self.localIsOwner = localIsOwner
        self.peerIsOwner = peerIsOwner ?? !localIsOwner
        self.sendsWhole = sendsWhole ?? localIsOwner
        self.clock = clock
        self.seqs = seqs
    }
}

/// Photo data this peer lacks: what to fetch, how big it is and which store it goes to.
public struct DataItem: Hashable, Sendable {
    public var hash: ContentHash
    public var size: Int64
    public var store: StoreKind

    public init(hash: ContentHash, size: Int64, store: StoreKind) {
        self.hash = hash
        self.size = size
        self.store = store
    }
}

/// What the store said to a change set.
public enum ApplyOutcome: Equatable, Sendable {
    /// Applied; `refused` are the objects the store refused, `versions` how it holds those of
    /// them it has (for the author to undo to); `clock` is the zone's clock afterwards.
    case applied(refused: [Refusal], versions: [ObjectChange], clock: VectorClock)
    /// The local clock does not dominate the set's `since`.
    case notReady(clock: VectorClock)
    /// The store does not hold the zone.
    case unknownZone
    /// Storage failed (disk full, I/O error…).
    case failed(String)
}

/// What opening the partial file of a fetch found.
public enum PartialOpenResult: Equatable, Sendable {
    /// Ready to append; `existingBytes` were kept from an earlier, interrupted transfer.
    case opened(existingBytes: Int64)
    /// The data is already in the store.
    case alreadyPresent
    /// Another connection is fetching the same data.
    case busy
    case failed(String)
}

/// How finishing a fetch (verifying the hash, moving the file into place) went.
public enum DataCompletion: Equatable, Sendable {
    case stored
    /// The bytes do not hash to the expected value; the partial file was discarded.
    case mismatch
    /// Local I/O failed; the partial file was kept.
    case failed(String)
}

/// The result of reading data to serve a request.
public enum DataReadResult: Equatable, Sendable {
    case bytes([UInt8], isFinal: Bool)
    case refused(DataErrorReason, String)
}

/// An input to a `SyncSession`: something that happened on the connection or locally.
public enum SessionEvent: Sendable {
    /// Bytes read from the connection, in any pieces.
    case bytes([UInt8])
    /// A whole frame (for drivers that decode frames themselves).
    case frame(Frame)
    /// The zones replicated with this peer now (a full list).
    case zonesChanged([SessionZone])
    /// A local transaction (a command, or changes applied from any peer) touched `zone`.
    case localCommit(zone: String)
    /// The peer no longer takes part in `zone` (removed, or the share stopped): stop
    /// replicating it and tell the peer, which purges its copy.
    case revoke(zone: String, reason: String)
    /// Time passed; keepalive, timeouts and retries are checked.
    case tick
    /// Runs anti-entropy again: announces these clocks and sends anything the peer lacks.
    case resync([SessionZone])
    /// The store's answer to `SessionAction.prepareChanges`.
    case changesPrepared(zone: String, generation: Int, Result<ChangePage, SessionFailure>)
    /// The store's answer to `SessionAction.apply`.
    case applied(zone: String, ApplyOutcome)
    /// The store's answer to `SessionAction.undoRefused`: the refusals undone, or why not;
    /// `kept`: those not undone, refused by records older than this side's.
    case undone(zone: String, Result<[Refusal], SessionFailure>, kept: [Refusal] = [])
    /// Photo data found missing locally, to fetch from this peer.
    case dataWanted([DataItem])
    case partialOpened(ContentHash, PartialOpenResult)
    case dataWriteFailed(ContentHash, String)
    case dataFinished(ContentHash, DataCompletion)
    /// The answer to `SessionAction.readData`.
    case dataRead(DataRequest, DataReadResult)
    /// Data arrived in the local store (from any connection).
    case dataArrived(ContentHash)
    /// A transfer of this data (on any connection) ended without storing it: a fetch that
    /// found it busy may start now.
    case dataClaimReleased(ContentHash)
    /// Signed membership operations of `zone` to send the peer (this side owns the zone):
    /// sent when the zone is replicated with the peer and both sides have
    /// `Capabilities.membership`, dropped otherwise.
    /// `signerLists` (device lists of the persons signing accepts or leaves) go with the
    /// first message when the peer announced `Capabilities.signerLists`.
    case sendMembership(zone: String, operations: [[UInt8]], signerLists: [[[UInt8]]] = [])
    /// The owner refused another member's changes (`SessionNotice.refusedFromPeer`): tell
    /// this peer, which undoes them if it took them.
    case relayRefusals(ChangesRefused)
    /// This side has new signed sets of `zone` to pass on: its own (a local commit), or sets
    /// another connection kept while this side relays (`SessionNotice.signedSetsStored`).
    case setsChanged(zone: String)
    /// The members this side is connected to now, among those the peer may know of: told to
    /// the peer (`NeighboursMessage`) when both hellos agreed on it.
    case sendNeighbours([PeerID])
    /// This person's device list changed: the peer is shown the new one, if it takes lists.
    case sendDeviceList([[UInt8]])
    /// The zones this library holds, for another device of its person (`SiblingZonesMessage`).
    case sendSiblingZones(SiblingZonesMessage)
    /// Signed address records to tell the peer (`AddressRecordsMessage`), if it takes them.
    case sendAddressRecords([AddressRecord])
    /// The store's answer to `SessionAction.prepareSets`.
    case setsPrepared(zone: String, Result<PreparedSets, SessionFailure>)
    /// The store's answer to `SessionAction.applySets`.
    case setsApplied(zone: String, SetsApplied)
    /// This side wants the connection closed.
    case closeRequested(CloseCode, String)
    /// The connection ended (nil: cleanly) or broke.
    case transportEnded(String?)
}

/// A failure reported back to the session, as text for the log.
public struct SessionFailure: Error, Equatable, Sendable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
