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
        for bytes in message.sets {
            let signed: SignedChangeSet
            do {
                signed = try SignedChangeSet(decoding: bytes, maximumBodyBytes: maximumBodyBytes)
            } catch {
                log(.warning, "refused a signed set of zone \(zone): \(error)")
                failed = true
                continue
            }
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
                try signed.verify(zone: zone, keys: keys) { device in
                    offered[device] ?? (try? store.setAuthorCertificate(device)) ?? nil
                }
            } catch {
                log(.warning, "refused a signed set of zone \(zone): \(error)")
                failed = true
                continue
            }
            if let certificate = offered[author], try store.setAuthorCertificate(author) == nil {
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
            let row = SignedSetRow(author: author, seq: header.seq, hash: header.hash, hlc: hlc, bytes: bytes)
            let set = ChangeSet(
                zone: zone, since: VectorClock(), until: VectorClock([author: hlc]), objects: body.objects)
            let report: ApplyReport
            do {
                report = try store.apply(set, from: relayIsOwner ? owner ?? author : author, signed: row)
            } catch SyncError.unknownZone {
                return SetsApplied(received: received, held: SeqVector(), gap: false, notes: notes)
            }
            for refusal in report.refused {
                log(
                    .info,
                    "did not take from set \(header.seq) of \(author.short) in zone \(zone): \(refusal)")
            }
            tops[author] = (header.seq, header.hash)
            stored += 1
        }
        var outcome = SetsApplied(
            received: received, held: SeqVector(tops.mapValues(\.seq)), gap: gap && !failed, notes: notes)
        outcome.stored = stored
        return outcome
    }
}
