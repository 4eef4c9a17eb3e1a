import Store

/// Anti-entropy and push: announcing clocks, computing what the peer lacks, sending it under
/// the window, and applying and answering what the peer sends.
extension SyncSession {
    /// Sends our clocks of `list`. After the hello it goes out even when empty, so that the
    /// peer knows this side has announced everything it replicates with it.
    mutating func announce(_ list: [SessionZone], evenIfEmpty: Bool = false) {
        guard !list.isEmpty || evenIfEmpty else { return }
        let entries = list.sorted { $0.zone < $1.zone }.map {
            ZoneClocks.Entry(zone: $0.zone, clock: $0.clock)
        }
        for entry in entries { zones[entry.zone]?.told = entry.clock }
        out.send(ZoneClocks(entries))
        for zone in list.sorted(by: { $0.zone < $1.zone }) { announceSets(zone) }
    }

    mutating func zonesChanged(_ list: [SessionZone]) {
        let wanted = Dictionary(list.map { ($0.zone, $0) }, uniquingKeysWith: { first, _ in first })
        for (zone, replication) in zones where wanted[zone] == nil {
            zones[zone] = nil
            outbox.dropWaiting(zone: zone)
            // What the peer announced stays known, as if announced again now: should the zone
            // come back on this connection, the peer (which goes on replicating it, and will
            // not announce it again) is not waited for in vain, with nothing ever sent.
            if let remote = replication.remote,
                unclaimedAnnouncements.count < SyncSession.maxUnclaimedAnnouncements
            {
                unclaimedAnnouncements[zone] = remote
            }
            out.log(.info, "stopped replicating zone \(zone) with this peer")
        }
        var added: [SessionZone] = []
        for (zone, info) in wanted.sorted(by: { $0.key < $1.key }) where zones[zone] == nil {
            var replication = ZoneReplication(info: info, batchSize: configuration.changeBatchSize)
            // The peer may have announced the zone before this side started replicating it.
            if let clock = unclaimedAnnouncements.removeValue(forKey: zone) {
                replication.remote = clock
                replication.dirty = true
                announcedByPeer(info)
            }
            zones[zone] = replication
            added.append(info)
        }
        if state == .active {
            announce(added)
            for info in added { maybePrepare(info.zone) }
            // A zone replicated with the peer now: the data it refused may be shared with
            // this side as well.
            if !added.isEmpty { fetcher.askAgainRefused(&out) }
        }
    }

    mutating func receiveZoneClocks(_ message: ZoneClocks) {
        var newlyShared = false
        if !remoteAnnounced {
            remoteAnnounced = true
            out.notify(.synchronising(zones: message.entries.count))
        }
        for entry in message.entries {
            guard var zone = zones[entry.zone] else {
                // Kept for when membership catches up here (both sides learn of a new share
                // at about the same time); bounded, since the peer chooses what it announces.
                if unclaimedAnnouncements.count < SyncSession.maxUnclaimedAnnouncements
                    || unclaimedAnnouncements[entry.zone] != nil
                {
                    unclaimedAnnouncements[entry.zone] = entry.clock
                    // Or the peer holds a copy it should no longer have: the engine checks the
                    // store as it is now (the peer may have just joined again) and says so.
                    out.notify(.unreplicatedZoneAnnounced(entry.zone))
                }
                out.log(
                    .debug,
                    "the peer announced zone \(entry.zone), which is not replicated with it here (yet)")
                continue
            }
            announcedByPeer(zone.info)
            // First announced on this connection: the peer shares it with this side now.
            if zone.remote == nil { newlyShared = true }
            zone.remote = entry.clock
            zone.generation += 1
            zone.dirty = true
            zones[entry.zone] = zone
            outbox.dropWaiting(zone: entry.zone)
            maybePrepare(entry.zone)
        }
        // The peer shares a zone with this side it did not before (a join it ratified): the
        // data it refused may be shared now. Once per zone and connection, so that zone
        // clocks sent again and again cannot make this side ask again and again.
        if newlyShared, state == .active { fetcher.askAgainRefused(&out) }
    }

    /// Stops replicating `zone` with the peer and tells it why (`zoneRevoked`): it purges its
    /// copy.
    mutating func revoke(_ id: String, _ reason: String) {
        if zones.removeValue(forKey: id) != nil {
            outbox.dropWaiting(zone: id)
            out.log(.info, "stopped replicating zone \(id) with this peer: its membership ended")
        }
        unclaimedAnnouncements[id] = nil
        guard state == .active else { return }
        out.send(ZoneNotice(type: .zoneRevoked, zone: id, reason: reason).frame)
    }

    mutating func resync(_ list: [SessionZone]) {
        guard state == .active else { return }
        announce(list.filter { zones[$0.zone] != nil })
        for zone in zones.keys.sorted() { markDirty(zone) }
    }

    mutating func markDirty(_ zone: String) {
        guard zones[zone] != nil else { return }
        zones[zone]!.dirty = true
        maybePrepare(zone)
    }

    /// Asks the store for the zone's changes the peer lacks, unless a computation is under way
    /// or earlier sets of the zone still wait for the window (they will be followed up).
    mutating func maybePrepare(_ id: String) {
        guard state == .active, var zone = zones[id], let remote = zone.remote, zone.dirty, !zone.preparing,
            !zone.stalled, outbox.waitingCount(zone: id) == 0
        else { return }
        zone.dirty = false
        zone.preparing = true
        zones[id] = zone
        let limit = ChangePageLimit(
            fields: zone.batchSize * configuration.changePageBatches, bytes: configuration.changePageBytes)
        out.append(
            .prepareChanges(
                zone: id, since: remote, batchSize: zone.batchSize, limit: limit, generation: zone.generation)
        )
    }

    mutating func changesPrepared(
        zone id: String, generation: Int, _ result: Result<ChangePage, SessionFailure>
    ) {
        guard var zone = zones[id], zone.preparing else { return }
        zone.preparing = false
        zones[id] = zone
        guard generation == zone.generation else {
            maybePrepare(id)  // computed from a belief since reset
            return
        }
        let sets: [ChangeSet]
        switch result {
        case .success(let page):
            sets = page.sets
            // More to send: the next page is computed once this one has left the outbox.
            if !page.complete { zones[id]!.dirty = true }
        case .failure(let failure):
            close(
                .internalFailure("computing changes of zone \(id): \(failure.message)"), code: .internalError)
            return
        }
        var frames: [Frame] = []
        var expected = zone.remote ?? VectorClock()
        for set in sets {
            let after = zone.expected(after: set, localPeer: localPeer)
            if set.objects.isEmpty && expected.dominates(after) && zone.told.dominates(set.until) { continue }
            let frame = ChangeSetMessage(set).frame()
            guard frame.bodyLength <= sendableFrameSize else {
                shrinkBatches(id)
                return
            }
            frames.append(frame)
            expected = expected.merged(with: after)
            zone.remote = expected
            zone.told = zone.told.merged(with: set.until)
        }
        zones[id]!.remote = expected
        zones[id]!.told = zone.told
        for frame in frames { outbox.enqueue(.init(zone: id, generation: generation, frame: frame)) }
        pumpOutbox()
        maybePrepare(id)
        maybePrepareSets(id)
    }

    /// A set did not fit in a frame: asks again with smaller batches, or gives up on the zone
    /// when even one transaction is too large.
    private mutating func shrinkBatches(_ id: String) {
        guard var zone = zones[id] else { return }
        if zone.batchSize <= 1 {
            zone.stalled = true
            out.log(
                .error,
                "zone \(id): one transaction's changes exceed the frame limit of "
                    + "\(sendableFrameSize) bytes; this zone stops replicating with the peer")
        } else {
            zone.batchSize = max(1, zone.batchSize / 4)
            zone.dirty = true
        }
        zones[id] = zone
        maybePrepare(id)
    }

    mutating func pumpOutbox() {
        var drained: Set<String> = []
        while let entry = outbox.next(window: configuration.changeWindowBytes) {
            out.send(entry.frame)
            drained.insert(entry.zone)
        }
        for zone in drained.sorted() { maybePrepare(zone) }
    }

    mutating func receiveAnswer(zone id: String, clock: VectorClock, ready: Bool) throws(ProtocolViolation) {
        guard let sent = outbox.answer(zone: id) else {
            throw ProtocolViolation("an answer for zone \(id) matches no change set sent")
        }
        if var zone = zones[id], zone.remote != nil {
            if ready {
                zone.remote = zone.remote!.merged(with: clock)
            } else if sent.generation == zone.generation {
                out.log(.info, "the peer lacks earlier changes of zone \(id); sending again from its clock")
                zone.remote = clock
                zone.generation += 1
                zone.dirty = true
                outbox.dropWaiting(zone: id)
            }
            zones[id] = zone
        }
        pumpOutbox()
        maybePrepare(id)
        maybePrepareSets(id)
    }

    mutating func receiveChangeSet(_ set: ChangeSet) {
        guard zones[set.zone] != nil else {
            out.log(
                .info, "ignored a change set for zone \(set.zone), which is not replicated with this peer")
            incoming.append(.init(zone: set.zone, until: set.until, applying: false))
            answerIgnored()
            return
        }
        incoming.append(.init(zone: set.zone, until: set.until, applying: true))
        out.append(.apply(set))
    }

    mutating func applied(zone id: String, _ outcome: ApplyOutcome) {
        guard let entry = incoming.takeApplied(zone: id) else {
            out.log(.error, "an apply result for zone \(id) matches no change set received")
            return
        }
        switch outcome {
        case .applied(let refused, let versions, let clock):
            if var zone = zones[id] {
                zone.remote = zone.remote.map { $0.merged(with: entry.until) }
                zones[id] = zone
            }
            for refusal in refused {
                let waits = refusal.waitsForReference
                out.log(
                    waits ? .info : .warning,
                    "\(waits ? "did not take yet" : "refused") from the peer in zone \(id): \(refusal)")
            }
            out.notify(.changeSetApplied(zone: id, refused: refused.count))
            // The author undoes what was refused (told before the ack, so it is done when the
            // ack says the set was taken). A change that refers to what has not arrived here
            // yet is no verdict: not claimed by the clock, it is sent again, and taken then.
            // Refusals for want of permission go in a notice of their own, with the records of
            // their authors they were judged by (the versions of no refused object), so that an
            // author holding newer records can tell (`LibraryStore.holdsNewerRecords`).
            let verdicts = refused.filter { !$0.waitsForReference }
            let records = ChangesRefused.judgingRecords(in: versions, refusals: refused)
            for group in [
                verdicts.filter { !$0.forWantOfPermission }, verdicts.filter(\.forWantOfPermission),
            ]
            where !group.isEmpty {
                let own = versions.filter { version in group.contains { $0.names(version) } }
                let notice = ChangesRefused(
                    zone: id, refusals: group, versions: own + (group[0].forWantOfPermission ? records : []))
                if agreement?.capabilities.contains(.refusalNotices) == true { out.send(notice) }
                if zones[id]?.info.localIsOwner == true { out.notify(.refusedFromPeer(notice)) }
            }
            out.send(ChangeSetAck(zone: id, clock: clock))
        case .notReady(let clock):
            out.log(.info, "a change set for zone \(id) needs earlier changes; asking the peer to resend")
            out.send(ChangeSetNotReady(zone: id, clock: clock))
        case .unknownZone:
            out.log(.warning, "zone \(id) is no longer in the store; change set ignored")
            out.send(ChangeSetAck(zone: id, clock: VectorClock()))
        case .failed(let reason):
            close(.internalFailure("applying a change set of zone \(id): \(reason)"), code: .internalError)
            return
        }
        answerIgnored()
    }

    /// The peer refused changes sent from here. The changes made here are undone when the
    /// peer is the zone's owner (whose decision every participant follows); the owner only
    /// logs what a participant refused of what it relayed, and a fellow participant's refusal
    /// is only logged (its membership may be behind the owner's: the change is sent to it
    /// again, and the owner's verdict decides).
    mutating func receiveRefusals(_ message: ChangesRefused) {
        guard let zone = zones[message.zone] else {
            out.log(
                .info, "ignored refusals for zone \(message.zone), which is not replicated with this peer")
            return
        }
        for refusal in message.refusals {
            // The owner also tells every member what it refused of another member's.
            let mine = refusal.fields.contains { $0.stamp.peer == localPeer }
            out.log(mine ? .warning : .debug, "the peer refused a change of zone \(message.zone): \(refusal)")
        }
        guard zone.info.peerIsOwner else { return }
        pendingUndos += 1
        out.append(.undoRefused(message))
    }

    /// The owner (this side) refused another member's changes: tells this peer, a member of
    /// the zone, which undoes them if it took them from their author.
    mutating func relayRefusals(_ message: ChangesRefused) {
        guard state == .active, let zone = zones[message.zone], zone.info.localIsOwner,
            agreement?.capabilities.contains(.refusalNotices) == true
        else { return }
        out.send(message)
    }

    mutating func undone(zone id: String, _ result: Result<[Refusal], SessionFailure>, kept: [Refusal] = []) {
        pendingUndos = max(0, pendingUndos - 1)
        if !kept.isEmpty {
            out.log(
                .notice,
                "kept \(kept.count) change(s) of zone \(id) that the peer refused by records older than "
                    + "this side's: sent again, for it to take once its records catch up")
        }
        switch result {
        case .success(let all):
            // Another member's changes, refused by the owner, undone here too: not this
            // side's refusals to report.
            let refusals = all.filter { $0.fields.contains { $0.stamp.peer == localPeer } }
            guard !refusals.isEmpty else {
                if !all.isEmpty {
                    out.log(
                        .debug,
                        "took the owner's version of \(all.count) object(s) of zone \(id) it turned down")
                }
                return
            }
            out.log(.notice, "undid \(refusals.count) change(s) of zone \(id) that the peer refused")
            out.notify(.changesRefused(zone: id, refusals: refusals))
        case .failure(let failure):
            close(
                .internalFailure("undoing refused changes of zone \(id): \(failure.message)"),
                code: .internalError)
        }
    }

    private mutating func answerIgnored() {
        for entry in incoming.takeIgnored() { out.send(ChangeSetAck(zone: entry.zone, clock: VectorClock())) }
    }
}
