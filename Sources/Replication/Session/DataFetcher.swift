/// The fetching side of photo data on one connection: which photos to pull, the requests
/// outstanding, and where each transfer stands.
///
/// At most `window` requests of `chunkSize` bytes are outstanding at once, so a transfer
/// needs the same memory for a photo of 1 MB or 1 GB. A transfer starts from whatever an
/// interrupted one left in the partial file. Data the peer lacks is set aside and asked for
/// again when the peer says it arrived, or after the retry interval; data another
/// connection is fetching ("busy") is set aside until that transfer ends: stored (then it
/// is no longer wanted) or given up (then it is asked for here at once).
struct DataFetcher: Sendable {
    private struct Fetch: Sendable {
        enum Phase: Sendable {
            case opening
            case transferring(requested: Int64, received: Int64)
            case finishing
        }
        var item: DataItem
        var id: Int
        var phase: Phase
    }

    private struct Outstanding: Sendable {
        var hash: ContentHash
        var fetchID: Int
        var offset: Int64
        var length: Int
    }

    let chunkSize: Int
    let window: Int
    let parallelFiles: Int
    let publishBacklog: Int
    let retryInterval: Duration
    private var queue: [DataItem] = []
    private var known: Set<ContentHash> = []
    private var active: [ContentHash: Fetch] = [:]
    private var order: [ContentHash] = []
    private var outstanding: [Outstanding] = []
    private var deferred: [ContentHash: DataItem] = [:]
    /// Set aside because another connection held the data's claim.
    private var busy: Set<ContentHash> = []
    private var failed: Set<ContentHash> = []
    /// Refused by the peer as data it does not share with this side: asked again when the
    /// peer announces zones, as what it shares may have changed (a join it ratified).
    private var refused: [ContentHash: DataItem] = [:]
    private var nextID = 0
    private var nextRetry: ContinuousClock.Instant?

    init(configuration: SessionConfiguration) {
        // A chunk comes back in one frame, which must fit the largest frame this side accepts.
        let fitsAFrame = configuration.maximumFrameSize - 1024
        chunkSize = max(1, min(configuration.dataChunkSize, configuration.limits.maxChunkBytes, fitsAFrame))
        window = max(1, configuration.dataWindow)
        parallelFiles = max(1, configuration.dataParallelFiles)
        publishBacklog = max(1, configuration.dataPublishBacklog)
        retryInterval = configuration.dataRetryInterval
    }

    /// Photos queued, in transfer or set aside.
    var pendingCount: Int { known.count }
    /// Photos in transfer.
    var activeCount: Int { active.count }
    var outstandingRequests: Int { outstanding.count }

    mutating func want(_ items: [DataItem]) {
        for item in items
        where !failed.contains(item.hash) && refused[item.hash] == nil && known.insert(item.hash).inserted {
            queue.append(item)
        }
    }

    /// Opens transfers and sends requests as far as the limits allow.
    mutating func pump(_ out: inout SessionOutput) {
        var progressed = true
        while progressed {
            progressed = false
            for hash in order where outstanding.count < window {
                guard var fetch = active[hash], case .transferring(var requested, let received) = fetch.phase
                else { continue }
                while requested < fetch.item.size && outstanding.count < window {
                    let length = Int(min(Int64(chunkSize), fetch.item.size - requested))
                    out.send(DataRequest(hash: hash, offset: UInt64(requested), length: UInt32(length)))
                    outstanding.append(
                        Outstanding(hash: hash, fetchID: fetch.id, offset: requested, length: length))
                    requested += Int64(length)
                }
                fetch.phase = .transferring(requested: requested, received: received)
                active[hash] = fetch
            }
            if !queue.isEmpty, allActiveFullyRequested, count(finishing: false) < parallelFiles,
                count(finishing: true) < publishBacklog
            {
                let item = queue.removeFirst()
                nextID += 1
                active[item.hash] = Fetch(item: item, id: nextID, phase: .opening)
                order.append(item.hash)
                out.append(.openPartial(item))
                progressed = true
            }
        }
    }

    /// Photos being received (`finishing` false) or received and being published.
    private func count(finishing: Bool) -> Int {
        active.values.count { fetch in
            if case .finishing = fetch.phase { return finishing }
            return !finishing
        }
    }

    private var allActiveFullyRequested: Bool {
        active.values.allSatisfy { fetch in
            switch fetch.phase {
            case .opening: return false
            case .transferring(let requested, _): return requested >= fetch.item.size
            case .finishing: return true
            }
        }
    }

    mutating func opened(_ hash: ContentHash, _ result: PartialOpenResult, _ out: inout SessionOutput) {
        guard var fetch = active[hash], case .opening = fetch.phase else { return }
        switch result {
        case .opened(let existing):
            let start = max(0, min(existing, fetch.item.size))
            out.notify(.dataFetchStarted(hash, offset: start, size: fetch.item.size))
            if start >= fetch.item.size {
                fetch.phase = .finishing
                out.append(.finishData(hash))
            } else {
                fetch.phase = .transferring(requested: start, received: start)
            }
            active[hash] = fetch
        case .alreadyPresent:
            remove(hash)
        case .busy:
            remove(hash)
            setAside(fetch.item)
            busy.insert(hash)
        case .failed(let reason):
            remove(hash)
            setAside(fetch.item)
            out.log(.warning, "cannot store photo data \(hash.short): \(reason)")
        }
        pump(&out)
    }

    /// A chunk, which must answer the oldest outstanding request.
    mutating func received(_ chunk: DataChunk, _ out: inout SessionOutput) throws(ProtocolViolation) {
        let request = try oldest(answering: chunk.hash, "data chunk")
        guard Int64(chunk.offset) == request.offset else {
            throw ProtocolViolation(
                "a data chunk starts at \(chunk.offset), its request at \(request.offset)")
        }
        guard chunk.bytes.count == request.length || (chunk.isFinal && chunk.bytes.count < request.length)
        else {
            throw ProtocolViolation(
                "a data chunk of \(chunk.bytes.count) bytes answers a request of \(request.length)")
        }
        outstanding.removeFirst()
        guard var fetch = active[chunk.hash], fetch.id == request.fetchID,
            case .transferring(let requested, var received) = fetch.phase
        else { return }  // the transfer was given up; late answers are expected
        out.append(.writeData(chunk.hash, chunk.bytes))
        received += Int64(chunk.bytes.count)
        if received >= fetch.item.size {
            fetch.phase = .finishing
            active[chunk.hash] = fetch
            out.append(.finishData(chunk.hash))
        } else if chunk.isFinal {
            fail(
                fetch.item, discard: true, retry: false,
                "the peer's data ends after \(received) bytes, the photo has \(fetch.item.size)", &out)
        } else {
            fetch.phase = .transferring(requested: requested, received: received)
            active[chunk.hash] = fetch
        }
        pump(&out)
    }

    /// A refusal, which must answer the oldest outstanding request.
    mutating func received(_ error: DataError, _ out: inout SessionOutput) throws(ProtocolViolation) {
        let request = try oldest(answering: error.hash, "data error")
        outstanding.removeFirst()
        guard let fetch = active[error.hash], fetch.id == request.fetchID else { return }
        let reason = "the peer answered \(error.reason): \(error.message)"
        switch error.reason {
        case .unavailable:
            remove(error.hash)
            out.append(.closePartial(error.hash, discard: false))
            setAside(fetch.item)
            out.log(.debug, "photo data \(error.hash.short) is not at the peer yet; waiting for it")
        case .unknown:
            // Expected when asking a peer that lacks the photo (a participant asked on
            // connection), or that does not share it with this side yet (an owner that has
            // not ratified this device's join): other peers are asked, and this one again
            // only once it announces zones.
            remove(error.hash)
            out.append(.closePartial(error.hash, discard: false))
            refused[error.hash] = fetch.item
            out.log(.info, "the peer has no photo data \(error.hash.short) to give: \(error.message)")
        case .badRange:
            fail(fetch.item, discard: true, retry: false, reason, &out)
        default:
            fail(fetch.item, discard: false, retry: true, reason, &out)
        }
        pump(&out)
    }

    private func oldest(answering hash: ContentHash, _ what: String) throws(ProtocolViolation) -> Outstanding
    {
        guard let first = outstanding.first else { throw ProtocolViolation("a \(what) answers no request") }
        guard first.hash == hash else {
            throw ProtocolViolation("a \(what) for \(hash.short) answers a request for \(first.hash.short)")
        }
        return first
    }

    mutating func writeFailed(_ hash: ContentHash, _ reason: String, _ out: inout SessionOutput) {
        guard let fetch = active[hash] else { return }
        fail(fetch.item, discard: false, retry: true, "writing it failed: \(reason)", &out)
        pump(&out)
    }

    mutating func finished(_ hash: ContentHash, _ completion: DataCompletion, _ out: inout SessionOutput) {
        guard let fetch = active[hash], case .finishing = fetch.phase else { return }
        remove(hash)
        switch completion {
        case .stored:
            out.notify(.dataFetched(hash, size: fetch.item.size))
        case .mismatch:
            failed.insert(hash)
            out.notify(.dataFetchFailed(hash, "the received data does not match its SHA-256"))
            out.log(.warning, "photo data \(hash.short) from the peer does not match its hash; discarded")
        case .failed(let reason):
            setAside(fetch.item)
            out.notify(.dataFetchFailed(hash, reason))
            out.log(.warning, "cannot store photo data \(hash.short): \(reason)")
        }
        pump(&out)
    }

    /// The peer now has data it lacked: ask again.
    mutating func available(_ hash: ContentHash, _ out: inout SessionOutput) {
        guard let item = deferred.removeValue(forKey: hash) else { return }
        busy.remove(hash)
        queue.append(item)
        pump(&out)
    }

    /// Another connection gave up fetching `hash`: if it was set aside here as busy, ask now
    /// rather than at the retry interval.
    mutating func released(_ hash: ContentHash, _ out: inout SessionOutput) {
        guard busy.remove(hash) != nil, let item = deferred.removeValue(forKey: hash) else { return }
        queue.append(item)
        pump(&out)
    }

    /// The data reached the store by another way: stop wanting it.
    mutating func arrived(_ hash: ContentHash) {
        // Usually the fetch that just finished here (no longer known): nothing to scan for.
        guard active[hash] == nil, known.contains(hash) else { return }
        queue.removeAll { $0.hash == hash }
        deferred[hash] = nil
        busy.remove(hash)
        known.remove(hash)
    }

    /// The peer announced zones: the data it refused as not shared with this side is asked
    /// for again.
    mutating func askAgainRefused(_ out: inout SessionOutput) {
        guard !refused.isEmpty else { return }
        let items = refused.values.sorted { $0.hash < $1.hash }
        refused = [:]
        want(items)
        pump(&out)
    }

    /// Asks again for the data set aside, once the retry interval has passed.
    mutating func tick(now: ContinuousClock.Instant, _ out: inout SessionOutput) {
        guard !deferred.isEmpty else {
            nextRetry = nil
            return
        }
        guard let due = nextRetry else {
            nextRetry = now + retryInterval
            return
        }
        guard now >= due else { return }
        nextRetry = nil
        queue.append(contentsOf: deferred.values.sorted { $0.hash < $1.hash })
        deferred = [:]
        busy = []
        pump(&out)
    }

    private mutating func fail(
        _ item: DataItem, discard: Bool, retry: Bool, _ reason: String, _ out: inout SessionOutput
    ) {
        remove(item.hash)
        out.append(.closePartial(item.hash, discard: discard))
        if retry { setAside(item) } else { failed.insert(item.hash) }
        out.notify(.dataFetchFailed(item.hash, reason))
        out.log(.warning, "fetching photo data \(item.hash.short) failed: \(reason)")
    }

    private mutating func remove(_ hash: ContentHash) {
        active[hash] = nil
        order.removeAll { $0 == hash }
        known.remove(hash)
    }

    private mutating func setAside(_ item: DataItem) {
        deferred[item.hash] = item
        known.insert(item.hash)
    }
}
