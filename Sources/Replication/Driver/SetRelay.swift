import Store
import Support

/// The store side of relaying signed change sets (docs/REPLICATION.md, *Relayed changes*):
/// reading the sets a peer lacks, and checking and applying the sets a peer sends, whoever
/// their author. One per engine, shared by its connections (the key cache is).
///
/// Every set is checked on its own, as if its author had sent it: its body must be the one
/// its author signed for this zone, it must be the next set of its author's chain here, and
/// every change in it must be the author's own; then the store applies it with the author as
/// the sender, so the author's permission (by the records held here), the field rules and
/// the clock bound decide, exactly as for changes the author delivers itself.
final class SetRelay: Sendable {
    let keys: PublicKeyCache
    /// This device's certificate: sent with its own sets.
    let localCertificate: [UInt8]
    let localPeer: PeerID
    let limits: ChangeSetCodec.Limits

    init(
        localPeer: PeerID, localCertificate: [UInt8], keys: PublicKeyCache = PublicKeyCache(),
        limits: ChangeSetCodec.Limits = ChangeSetCodec.Limits()
    ) {
        self.localPeer = localPeer
        self.localCertificate = localCertificate
        self.keys = keys
        self.limits = limits
    }

    /// The sets of `zone` the peer lacks, with the certificates of their authors it has not
    /// been sent yet (`sentCertificates`, updated).
    func prepare(
        zone: String, after: SeqVector, byteLimit: Int, in store: LibraryStore,
        sentCertificates: inout Set<PeerID>
    ) throws -> PreparedSets {
        let (rows, more) = try store.signedSets(zone: zone, after: after.entries, byteLimit: byteLimit)
        var certificates: [[UInt8]] = []
        for author in Set(rows.map(\.author)).sorted() where !sentCertificates.contains(author) {
            let certificate = author == localPeer ? localCertificate : try store.setAuthorCertificate(author)
            guard let certificate else { continue }
            certificates.append(certificate)
            sentCertificates.insert(author)
        }
        return PreparedSets(sets: rows, certificates: certificates, more: more)
    }

    /// Checks and applies the sets of `message` in order. A set that fails a check is
    /// dropped (with a warning in the result); a gap in an author's chain drops that author's later
    /// sets of the message and is reported, so that the peer sends again from what this side
    /// holds. Returns what the peer evidently holds and what this side holds afterwards.
    ///
    /// From the zone's owner (`relayIsOwner`), a set is judged as everything the owner relays:
    /// its author must have been a participant (the owner checked it when it arrived, and a
    /// change made before its author left stays part of the zone); from anyone else, its
    /// author must be allowed to write now. Refusals of the latter are not evidence of
    /// forgery (the relay may hold a change the owner took before a removal this side knows
    /// of; the owner's copy brings it), so they are noted as such.
    func apply(
        _ message: SignedSetsMessage, to store: LibraryStore, relayIsOwner: Bool, owner: PeerID?,
        maximumBodyBytes: Int
    ) throws -> SetsApplied {
        var notes: [(SessionLogLevel, String)] = []
        func log(_ level: SessionLogLevel, _ text: String) { notes.append((level, text)) }
        let zone = message.zone
        var offered: [PeerID: [UInt8]] = [:]
        for certificate in message.certificates {
            offered[PeerID(digest: SHA256Hasher.digest(certificate))!] = certificate
        }
        var tops = try store.signedSetTops(zone: zone)
        var received: [PeerID: UInt64] = [:]
        var stopped: Set<PeerID> = []
        var gap = false
        var stored = 0
        // A set that fails its checks is not asked for again (it would fail again): the
        // gaps it leaves wait for the next exchange.
        var failed = false
        var decoded: [SignedChangeSet?] = []
        for bytes in message.sets {
            do {
                decoded.append(try SignedChangeSet(decoding: bytes, maximumBodyBytes: maximumBodyBytes))
            } catch {
                log(.warning, "refused a signed set of zone \(zone): \(error)")
                failed = true
                decoded.append(nil)
            }
        }
        var signatures = SignatureChecks(decoded, zone: zone, keys: keys) { device in
            offered[device] ?? (try? store.setAuthorCertificate(device)) ?? nil
        }
        // What this side holds already needs no second apply: its clock covers the set.
        var clock = try store.clock(of: zone)
        var work = SetWork(store: store, zone: zone)
        do {
            for (index, signed) in decoded.enumerated() {
                guard let signed else { continue }
                let header = signed.header
                let author = header.author
                received[author] = max(received[author] ?? 0, header.seq)
                guard !stopped.contains(author), author != localPeer else { continue }
                let held = tops[author]
                let heldSeq = held?.seq ?? 0
                // Held already (flooding brings most sets more than once): skipped before the
                // signature is checked, which only the next set of a chain needs. (A different set
                // at a held place would need the held hash, not read here, to be told apart.)
                if header.seq <= heldSeq { continue }
                do {
                    try signatures.check(index)
                } catch {
                    log(.warning, "refused a signed set of zone \(zone): \(error)")
                    failed = true
                    continue
                }
                if let certificate = offered.removeValue(forKey: author),
                    try store.setAuthorCertificate(author) == nil
                {
                    // Once per author and message (a message may hold thousands of its sets).
                    try store.rememberSetAuthor(author, certificate: certificate)
                }
                guard header.seq == heldSeq + 1, header.prevHash == (held?.hash ?? SignedSetHeader.noPrevious)
                else {
                    if header.seq > heldSeq + 1 {
                        gap = true
                    } else {
                        log(
                            .warning,
                            "refused set \(header.seq) of \(author.short) in zone \(zone): it does not follow the set "
                                + "held before it (its author signed two sets at one place)")
                        failed = true
                    }
                    stopped.insert(author)
                    continue
                }
                let body: ChangeSet
                do {
                    body = try ChangeSetCodec.decode(signed.body, limits: limits)
                } catch {
                    log(.warning, "refused set \(header.seq) of \(author.short) in zone \(zone): \(error)")
                    stopped.insert(author)
                    failed = true
                    continue
                }
                let stamps = body.objects.flatMap(\.fields).map(\.stamp)
                guard body.zone == zone, let hlc = stamps.first?.hlc,
                    stamps.allSatisfy({ $0.peer == author && $0.hlc == hlc })
                else {
                    log(
                        .warning,
                        "refused set \(header.seq) of \(author.short) in zone \(zone): it holds changes that are not "
                            + "its author's own, of one transaction")
                    stopped.insert(author)
                    failed = true
                    continue
                }
                let row = SignedSetRow(
                    author: author, seq: header.seq, hash: header.hash, hlc: hlc, bytes: message.sets[index])
                if clock[author] >= hlc {
                    try work.keep(row)
                } else {
                    let set = ChangeSet(
                        zone: zone, since: VectorClock(), until: VectorClock([author: hlc]),
                        objects: body.objects)
                    try work.apply(set, row, from: relayIsOwner ? owner ?? author : author)
                    clock[author] = max(clock[author], hlc)
                }
                tops[author] = (header.seq, header.hash)
                stored += 1
            }
            let reports = try work.finish()
            for report in reports {
                for refusal in report.report.refused {
                    log(
                        .info,
                        "did not take from set \(report.seq) of \(report.author.short) in zone \(zone): \(refusal)"
                    )
                }
            }
            // What these sets brought (a photo, a record) may be what earlier sets lacked.
            if !reports.isEmpty {
                notes += retakeRefused(zone: zone, in: store, maximumBodyBytes: maximumBodyBytes)
            }
        } catch SyncError.unknownZone {
            return SetsApplied(received: received, held: SeqVector(), gap: false, notes: notes)
        }
        var outcome = SetsApplied(
            received: received, held: SeqVector(tops.mapValues(\.seq)), gap: gap && !failed, notes: notes)
        outcome.stored = stored
        return outcome
    }

    /// Sets retaken per author and message at most: a set still refused stops its author
    /// (its entry cannot pass it), so an author whose writes are refused for good costs one
    /// set per message.
    static let retakenPerAuthor = 64

    /// Applies again, per author in chain order, the sets held whose changes the clock does
    /// not claim (refused for want of a record or photo that came later), until one is still
    /// refused. They were checked when they arrived; each is judged as its author's own
    /// delivery, by the records held now. Returns the notes to log: what was taken, and why
    /// an author's sets could not be tried (the message's own sets are kept whatever happens
    /// here).
    private func retakeRefused(zone: String, in store: LibraryStore, maximumBodyBytes: Int)
        -> [(SessionLogLevel, String)]
    {
        let held: [PeerID: [SignedSetRow]]
        do {
            held = try store.setsNotTaken(zone: zone, limit: Self.retakenPerAuthor)
        } catch {
            return [(.warning, "could not read the sets of zone \(zone) to take again: \(error)")]
        }
        var notes: [(SessionLogLevel, String)] = []
        for (author, rows) in held.sorted(by: { $0.key < $1.key }) {
            var taken = 0
            do {
                for row in rows {
                    let signed = try SignedChangeSet(decoding: row.bytes, maximumBodyBytes: maximumBodyBytes)
                    let body = try ChangeSetCodec.decode(signed.body, limits: limits)
                    let set = ChangeSet(
                        zone: zone, since: VectorClock(), until: VectorClock([author: row.hlc]),
                        objects: body.objects)
                    guard try store.apply(set, from: author, signed: row).refused.isEmpty else { break }
                    taken += 1
                }
            } catch {
                notes.append(
                    (.warning, "could not take again the sets of \(author.short) in zone \(zone): \(error)"))
            }
            if taken > 0 {
                notes.append(
                    (
                        .info,
                        "took \(taken) sets of \(author.short) in zone \(zone) refused before for want of what came since"
                    ))
            }
        }
        return notes
    }
}

/// The signature checks of one message's sets. Consecutive sets of one author on its chain
/// vouch for each other: a set's hash covers its header and signature, and the next set's
/// header names that hash, so a good signature on the last set of such a run proves every
/// set before it as its author signed it. One Ed25519 check per run instead of one per set
/// (a zone built photo by photo holds a set per photo; a check costs about 170 µs).
struct SignatureChecks {
    private let sets: [SignedChangeSet?]
    private let zone: String
    private let keys: PublicKeyCache
    private let certificates: (PeerID) -> [UInt8]?
    /// For each set, the last set of its run.
    private var runEnd: [Int]
    private var results: [Int: Result<Void, SignedSetError>] = [:]

    init(
        _ sets: [SignedChangeSet?], zone: String, keys: PublicKeyCache,
        certificates: @escaping (PeerID) -> [UInt8]?
    ) {
        self.sets = sets
        self.zone = zone
        self.keys = keys
        self.certificates = certificates
        runEnd = Array(sets.indices)
        var lastOf: [PeerID: Int] = [:]
        for (index, set) in sets.enumerated() {
            guard let header = set?.header else { continue }
            if let previous = lastOf[header.author], let before = sets[previous]?.header,
                header.seq == before.seq + 1, header.prevHash == before.hash
            {
                runEnd[previous] = index
            }
            lastOf[header.author] = index
        }
        for index in sets.indices.reversed() where runEnd[index] != index {
            runEnd[index] = runEnd[runEnd[index]]
        }
    }

    /// Throws unless set `index` is for this zone and its author signed it, or signed a
    /// later set of the message that names it.
    mutating func check(_ index: Int) throws(SignedSetError) {
        let end = runEnd[index]
        if end != index, case .success = verified(end) {
            // The run's last set names this one through the hashes between them; only the
            // zone, covered by the hash, is left to compare.
            let header = sets[index]!.header
            guard header.zone == zone else { throw .wrongZone(expected: zone, found: header.zone) }
            return
        }
        try verified(index).get()
    }

    private mutating func verified(_ index: Int) -> Result<Void, SignedSetError> {
        if let known = results[index] { return known }
        let (zone, keys, certificates) = (zone, keys, certificates)
        let result = Result { () throws(SignedSetError) in
            try sets[index]!.verify(zone: zone, keys: keys, certificates: certificates)
        }
        results[index] = result
        return result
    }
}

/// A message's sets, in order, as store work: runs of sets whose changes are held already
/// are kept in one transaction; runs of sets to apply from one sender are applied in one.
struct SetWork {
    let store: LibraryStore
    let zone: String
    private var keeping: [SignedSetRow] = []
    private var applying: (sender: PeerID, sets: [ChangeSet], rows: [SignedSetRow])?
    private var reports: [(author: PeerID, seq: UInt64, report: ApplyReport)] = []

    init(store: LibraryStore, zone: String) {
        self.store = store
        self.zone = zone
    }

    mutating func keep(_ row: SignedSetRow) throws {
        try flushApplying()
        keeping.append(row)
    }

    mutating func apply(_ set: ChangeSet, _ row: SignedSetRow, from sender: PeerID) throws {
        try flushKeeping()
        if let run = applying, run.sender != sender || run.sets.count >= Self.setsPerTransaction {
            try flushApplying()
        }
        var run = applying ?? (sender, [], [])
        run.sets.append(set)
        run.rows.append(row)
        applying = run
    }

    /// Sets applied together at most: a set holds one transaction of its author's, most
    /// often a few changes.
    static let setsPerTransaction = 512

    /// Does what is left; the reports of every set applied.
    mutating func finish() throws -> [(author: PeerID, seq: UInt64, report: ApplyReport)] {
        try flushKeeping()
        try flushApplying()
        return reports
    }

    private mutating func flushKeeping() throws {
        try store.keepSignedSets(keeping, zone: zone)
        keeping = []
    }

    private mutating func flushApplying() throws {
        guard let run = applying else { return }
        applying = nil
        for (row, result) in zip(run.rows, store.apply(run.sets, signed: run.rows, from: run.sender)) {
            reports.append((row.author, row.seq, try result.get()))
        }
    }
}
