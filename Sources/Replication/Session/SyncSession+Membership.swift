/// Signed membership operations: the owner sends them, the participant hands them to the
/// engine, which checks each (docs/PROTOCOL.md §7.7).
extension SyncSession {
    /// Sends operations of a zone this side owns and replicates with the peer.
    mutating func sendMembership(zone: String, _ operations: [[UInt8]], signerLists: [[[UInt8]]] = []) {
        guard state == .active, agreement?.capabilities.contains(.membership) == true,
            zones[zone]?.info.localIsOwner == true, !operations.isEmpty
        else { return }
        // In as many messages as the count bound and the peer's frame size take.
        let budget = max(sendableFrameSize - 1024, 1)
        var lists = agreement?.capabilities.contains(.signerLists) == true ? signerLists : []
        var batch: [[UInt8]] = []
        var bytes = lists.reduce(0) { $0 + 2 + $1.reduce(0) { $0 + 4 + $1.count } }
        for operation in operations {
            if !batch.isEmpty,
                batch.count == configuration.limits.maxMembershipOperations
                    || bytes + operation.count + 4 > budget
            {
                out.send(MembershipOperationsMessage(zone: zone, operations: batch, signerLists: lists))
                lists = []
                batch = []
                bytes = 0
            }
            batch.append(operation)
            bytes += operation.count + 4
        }
        out.send(MembershipOperationsMessage(zone: zone, operations: batch, signerLists: lists))
    }

    /// The peer announced a zone both sides replicate: as its owner, this side's log of it
    /// follows (the engine sends it with `sendMembership`). Sent after every announcement
    /// (a resync too): the peer ignores what it holds.
    mutating func announcedByPeer(_ zone: SessionZone) {
        guard zone.localIsOwner, agreement?.capabilities.contains(.membership) == true else { return }
        out.notify(.membershipWanted(zone: zone.zone))
    }

    /// Operations from the peer: passed on when the peer owns the zone; otherwise ignored and
    /// logged (a participant never sends them; a zone not replicated with the peer has no
    /// log here to add them to).
    mutating func receiveMembership(_ message: MembershipOperationsMessage) {
        guard let zone = zones[message.zone] else {
            out.log(
                .info,
                "ignored \(message.operations.count) membership operations of zone \(message.zone), "
                    + "which is not replicated with this peer")
            return
        }
        guard !zone.info.localIsOwner else {
            out.log(
                .warning,
                "ignored \(message.operations.count) membership operations of zone \(message.zone) "
                    + "sent by a participant: only the owner issues them")
            return
        }
        out.notify(
            .membershipReceived(
                zone: message.zone, operations: message.operations, signerLists: message.signerLists))
    }
}
