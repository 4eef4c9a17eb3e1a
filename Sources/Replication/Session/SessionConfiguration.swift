/// The knobs of one sync session: timers, batch and window sizes. Defaults suit a daemon;
/// tests shorten the timers.
public struct SessionConfiguration: Sendable {
    /// Send a ping when nothing has been sent for this long.
    public var pingInterval: Duration = .seconds(15)
    /// Close the connection when nothing has been received for this long.
    public var silenceTimeout: Duration = .seconds(45)
    /// Close the connection when the peer's hello has not arrived within this time of the
    /// session's start. The engine sets it to its `handshakeTimeout` and starts the session
    /// at the TCP connection, so the TLS handshake counts too.
    public var helloTimeout: Duration = .seconds(10)
    /// Field changes per change set asked of the store (smaller when a set would not fit in
    /// a frame).
    public var changeBatchSize = 2_000
    /// Change sets are computed a page at a time, the next once the last one is sent: a page
    /// holds at most this many batches, and none after the values pass `changePageBytes`. So
    /// the sender's memory follows the page and the window, not the size of the zone. (Four
    /// batches and a 2 MiB window keep an owner serving a 100,000-photo join at 54–60 MiB;
    /// with eight and 8 MiB it reached 80 MiB, no faster: docs/PERFORMANCE-NOTES.md.)
    public var changePageBatches = 4
    public var changePageBytes = 2 << 20
    /// Field changes of one zone, received on one connection, applied in one SQLite
    /// transaction at most: the change sets that arrive at a receiver while the transaction
    /// applies those before them join it (a joiner takes a zone in sets of 2,000 changes).
    /// Each commit writes every index page it touched into the log, and a zone's random IDs
    /// touch most of them, so fewer commits write far less: a 100,000-photo join between
    /// daemons took 7.3–7.6 s with 64,000 against 8.3–9.5 s with 16,000 (issue 17, three
    /// interleaved rounds, the same peak memory: the window bounds what waits). The price:
    /// the store's lock is held for one such transaction, 0.46–0.58 s in the in-process join
    /// of `peershare-bench --only=delta` (its "longest transaction"; 0.67–0.86 s before a
    /// group's new rows were held back and inserted in ID order, `NewRow.held`).
    public static let maximumChangesPerApply = 64_000
    /// Encoded change sets sent but not yet answered, in bytes (one set always goes, even
    /// when larger). Bounds what the receiver must buffer.
    public var changeWindowBytes = 2 << 20
    /// Bytes of signed sets read and sent in one message at most (one set always goes): the
    /// memory a relay of a zone's sets takes on either side.
    public var setsMessageBytes = 1 << 20
    /// Signed-sets messages sent and not yet answered, per zone, to a peer that answers them
    /// (`setAcks`): with `setsMessageBytes`, what a receiver holds of a relay's sets while it
    /// takes them.
    public var setsWindow = 2
    /// Bytes asked for per photo-data request.
    public var dataChunkSize = 256 << 10
    /// Photo-data requests outstanding at once: with the chunk size, the memory a transfer
    /// uses on either side, whatever the photo's size.
    public var dataWindow = 16
    /// Photos whose data is being fetched at once (small photos are pipelined).
    public var dataParallelFiles = 16
    /// Photos received and verified, waiting to be made durable together (one disk flush
    /// per group), before no more are started.
    public var dataPublishBacklog = 128
    /// How long to wait before asking again for data the peer did not have.
    public var dataRetryInterval: Duration = .seconds(30)
    /// Largest frame sent or accepted.
    public var maximumFrameSize = WireLimits.defaultMaximumFrameSize
    /// This device's device list (encoded entries), told to the peer after the hello
    /// (`Capabilities.persons`); empty until the engine has loaded it.
    public var deviceList: [[UInt8]] = []
    /// Decoding bounds.
    public var limits = MessageLimits()

    public init() {}
}
