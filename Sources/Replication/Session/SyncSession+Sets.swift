import Store

/// Signed change sets between members (docs/PROTOCOL.md §7.8): each side tells the other
/// which sets of a zone it holds (its seq vector), sends the ones the other lacks, oldest
/// first per author, and passes on every set it takes (a local commit or applied sets mark
/// the zone). This is how a member's change reaches members its author is not connected to;
/// the receiving store checks every set, whoever relays it.
extension SyncSession {
    var exchangesSets: Bool { agreement?.capabilities.contains(.signedSets) == true }

    /// Both sides answer signed-sets messages (`SetsTakenMessage`), so the sender keeps a
    /// window of them; with an older peer they go unanswered, as fast as they are read.
    var answersSets: Bool { exchangesSets && agreement?.capabilities.contains(.setAcks) == true }

    /// Tells the peer which sets of `zone` this side holds (after the zone clocks).
    mutating func announceSets(_ zone: SessionZone) {
        guard exchangesSets, zones[zone.zone] != nil else { return }
        out.send(SetVectorMessage(zone: zone.zone, vector: zone.seqs))
    }

    mutating func receiveSetVector(_ message: SetVectorMessage) throws(ProtocolViolation) {
        guard exchangesSets else {
            throw ProtocolViolation("a set vector, but the hellos did not agree on signed sets")
        }
        guard var zone = zones[message.zone] else {
            out.log(
                .debug,
                "ignored the set vector of zone \(message.zone), which is not replicated with this peer")
            return
        }
        zone.setsRemote = message.vector
        zone.setsDirty = true
        zones[message.zone] = zone
        maybePrepareSets(message.zone)
    }

    /// Asks the store for the sets the peer lacks, unless a read is under way, the peer has
    /// not said what it holds, or changes of the zone are still on their way to it: the sets
    /// then follow the changes, so a peer that is behind (a joiner) takes the zone's content
    /// from the changes and keeps the sets without applying them again.
    mutating func maybePrepareSets(_ id: String) {
        guard state == .active, exchangesSets, var zone = zones[id], let remote = zone.setsRemote,
            zone.setsDirty, !zone.setsPreparing, !zone.dirty, !zone.preparing, outbox.isIdle(zone: id),
            !answersSets || zone.setsUnanswered < configuration.setsWindow
        else { return }
        zone.setsDirty = false
        zone.setsPreparing = true
        zones[id] = zone
        out.append(
            .prepareSets(
                zone: id, after: remote,
                byteLimit: min(configuration.setsMessageBytes, max(sendableFrameSize - 64 * 1024, 64 * 1024)))
        )
    }

    mutating func setsPrepared(zone id: String, _ result: Result<PreparedSets, SessionFailure>) {
        guard var zone = zones[id], zone.setsPreparing else { return }
        zone.setsPreparing = false
        let prepared: PreparedSets
        switch result {
        case .success(let sets): prepared = sets
        case .failure(let failure):
            zones[id] = zone
            close(
                .internalFailure("reading signed sets of zone \(id): \(failure.message)"),
                code: .internalError)
            return
        }
        if !prepared.sets.isEmpty {
            let message = SignedSetsMessage(
                zone: id, certificates: prepared.certificates, sets: prepared.sets.map(\.bytes))
            if message.frame().bodyLength <= sendableFrameSize {
                out.send(message)
                if answersSets { zone.setsUnanswered += 1 }
            } else {
                // One set larger than a frame (a transaction of a huge import): the peer gets
                // those changes from their author or the owner instead.
                out.log(
                    .warning,
                    "zone \(id): a signed set of \(prepared.sets[0].author.short) does not fit in a frame; "
                        + "it is not relayed to this peer")
            }
            var remote = zone.setsRemote ?? SeqVector()
            for set in prepared.sets { remote.advance(set.author, to: set.seq) }
            zone.setsRemote = remote
        }
        if prepared.more { zone.setsDirty = true }
        zones[id] = zone
        maybePrepareSets(id)
    }

    /// This side has new sets of `zone` (its own commit, or sets taken while it relays): the
    /// peer may lack them.
    mutating func setsChanged(_ id: String) {
        guard zones[id] != nil else { return }
        zones[id]!.setsDirty = true
        maybePrepareSets(id)
    }

    mutating func receiveSignedSets(_ message: SignedSetsMessage) throws(ProtocolViolation) {
        guard exchangesSets else {
            throw ProtocolViolation("signed sets, but the hellos did not agree on them")
        }
        guard zones[message.zone] != nil else {
            out.log(
                .info,
                "ignored \(message.sets.count) signed sets of zone \(message.zone), which is not "
                    + "replicated with this peer")
            answer(setsOf: message.zone)
            return
        }
        setsApplying += 1
        out.append(.applySets(message))
    }

    /// Tells a peer that answers signed sets that one of its messages of `zone` was taken.
    private mutating func answer(setsOf zone: String) {
        if answersSets { out.send(SetsTakenMessage(zone: zone)) }
    }

    /// The peer took one of the signed-sets messages sent to it: the window has room again.
    mutating func receiveSetsTaken(_ message: SetsTakenMessage) throws(ProtocolViolation) {
        guard answersSets else {
            throw ProtocolViolation("sets taken, but the hellos did not agree on answering signed sets")
        }
        // A zone dropped from the connection (and perhaps added back) forgot its count: an
        // answer to a message sent before is ignored.
        guard var zone = zones[message.zone], zone.setsUnanswered > 0 else { return }
        zone.setsUnanswered -= 1
        zones[message.zone] = zone
        maybePrepareSets(message.zone)
    }

    mutating func setsApplied(zone id: String, _ outcome: SetsApplied) {
        setsApplying = max(0, setsApplying - 1)
        for note in outcome.notes { out.log(note.level, note.text) }
        if let failure = outcome.failure {
            close(.internalFailure("applying signed sets of zone \(id): \(failure)"), code: .internalError)
            return
        }
        answer(setsOf: id)
        guard var zone = zones[id] else { return }
        // The peer holds what it sent: nothing of it goes back.
        var remote = zone.setsRemote ?? SeqVector()
        for (author, seq) in outcome.received { remote.advance(author, to: seq) }
        if zone.setsRemote != nil { zone.setsRemote = remote }
        zones[id] = zone
        // Passed on by the other connections, also when the changes in them were already
        // here (they came from their author directly): nothing else tells those connections.
        if outcome.stored > 0 {
            out.notify(.signedSetsStored(zone: id, authors: Set(outcome.received.keys)))
        }
        if outcome.gap {
            // The peer's idea of what this side holds is wrong: it sends again from here.
            out.send(SetVectorMessage(zone: id, vector: outcome.held))
        }
    }
}
