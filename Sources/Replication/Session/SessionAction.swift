import Store
import Support

/// What a `SyncSession` asks its driver to do. The driver carries actions out in order and
/// reports results back as `SessionEvent`s.
public enum SessionAction: Equatable, Sendable {
    /// Write these frames, in one write when possible.
    case send([Frame])
    /// The hellos agree: the connection is established.
    case established(VersionAgreement)
    /// A sharing message (join, leave, membership check) for the engine's sharing hook.
    case sharing(Frame)
    /// Compute the next page of `store.changePage(zone:since:batchSize:limit:)`; answer with
    /// `changesPrepared`.
    case prepareChanges(
        zone: String, since: VectorClock, batchSize: Int, limit: ChangePageLimit, generation: Int)
    /// Read the signed sets of `zone` the peer lacks (it holds `after`), up to `byteLimit`
    /// bytes, with the certificates of their authors not sent on this connection yet; answer
    /// with `setsPrepared`.
    case prepareSets(zone: String, after: SeqVector, byteLimit: Int)
    /// Check and apply the peer's signed sets, in order; answer with `setsApplied`.
    case applySets(SignedSetsMessage)
    /// Apply the set from the peer; answer with `applied`, then report missing photo data
    /// with `dataWanted`.
    case apply(ChangeSet)
    /// Undo this peer's changes the peer refused, taking its versions (in order with the
    /// applies); answer with `undone`, after `dataWanted` for data the undo brought back.
    case undoRefused(ChangesRefused)
    /// Open (or create) the partial file for `item`; answer with `partialOpened`.
    case openPartial(DataItem)
    /// Append bytes to the open partial file of `hash`; report a failure with
    /// `dataWriteFailed`.
    case writeData(ContentHash, ArraySlice<UInt8>)
    /// Verify and move the completed partial file into the store; answer with
    /// `dataFinished`.
    case finishData(ContentHash)
    /// Close the partial file of `hash` without finishing it, deleting it when `discard`.
    case closePartial(ContentHash, discard: Bool)
    /// Read the requested range for the peer, if it may have it; answer with `dataRead`.
    case readData(DataRequest)
    /// Something worth recording for the peer's status or the event stream.
    case notify(SessionNotice)
    case log(SessionLogLevel, String)
    /// Close the connection; nothing more will be asked.
    case close(SessionCloseReason)
}

/// Progress worth showing outside the session.
public enum SessionNotice: Equatable, Sendable {
    /// The peer's zone clocks arrived: the connection is fully working.
    case synchronising(zones: Int)
    case changeSetApplied(zone: String, refused: Int)
    /// The peer refused changes made here; they were undone.
    case changesRefused(zone: String, refusals: [Refusal])
    /// This side, the zone's owner, refused the peer's changes: the zone's other members
    /// are told too (`SessionEvent.relayRefusals`), since one of them may have taken the
    /// changes from the peer directly.
    case refusedFromPeer(ChangesRefused)
    /// Signed sets of `zone` from the peer were kept here: the other connections replicating
    /// it pass them on (`SessionEvent.setsChanged`).
    /// `authors`: the authors of the sets the message carried.
    case signedSetsStored(zone: String, authors: Set<PeerID>)
    /// The peer told which members it is connected to now (`NeighboursMessage`).
    case neighboursAnnounced(Set<PeerID>)
    /// A fetch starts, at `offset` (non-zero when resuming an interrupted transfer).
    case dataFetchStarted(ContentHash, offset: Int64, size: Int64)
    case dataFetched(ContentHash, size: Int64)
    case dataFetchFailed(ContentHash, String)
    /// `count` bytes of photo data were sent to the peer.
    case dataServed(ContentHash, count: Int)
    /// The peer said where it listens (its advertised addresses, best first).
    case addressesAnnounced([PeerAddress])
    /// The peer sent signed address records (decoded, unchecked).
    case addressRecordsAnnounced([AddressRecord])
    /// The peer told which person it is: its device list's encoded entries, unchecked.
    case deviceListAnnounced([[UInt8]])
    /// The peer announced `zone`, which this side owns: its membership log is to be sent
    /// (`SessionEvent.sendMembership`).
    case membershipWanted(zone: String)
    /// The owner of `zone` sent signed membership operations (encoded, unchecked).
    /// `signerLists`: the device lists the owner sent with them, unchecked.
    case membershipReceived(zone: String, operations: [[UInt8]], signerLists: [[[UInt8]]] = [])
    /// The peer announced a zone this side does not replicate with it: the owner checks
    /// whether the peer's membership ended, and revokes the zone if so.
    case unreplicatedZoneAnnounced(String)
}

/// Severity of a session log line (journald priorities, coarsely).
public enum SessionLogLevel: Int, Comparable, Sendable {
    case debug = 7
    case info = 6
    case notice = 5
    case warning = 4
    case error = 3

    public static func < (a: SessionLogLevel, b: SessionLogLevel) -> Bool { a.rawValue > b.rawValue }
}

/// Why a session ended.
public enum SessionCloseReason: Equatable, Sendable, CustomStringConvertible {
    /// The peer sent something malformed or out of place.
    case protocolViolation(String)
    /// The peer closed, saying why.
    case remoteClosed(CloseCode, String)
    /// The connection ended (nil: cleanly) or broke.
    case transport(String?)
    /// The peer was silent for too long.
    case timeout(String)
    /// This side asked for the close.
    case local(CloseCode, String)
    /// Local storage failed.
    case internalFailure(String)

    public var description: String {
        switch self {
        case .protocolViolation(let text): return "protocol error: \(text)"
        case .remoteClosed(let code, let text): return "closed by the peer (\(code)): \(text)"
        case .transport(let text):
            return text.map { "connection lost: \($0)" } ?? "connection closed by the peer"
        case .timeout(let text): return text
        case .local(let code, let text): return "closed here (\(code)): \(text)"
        case .internalFailure(let text): return "local failure: \(text)"
        }
    }
}
