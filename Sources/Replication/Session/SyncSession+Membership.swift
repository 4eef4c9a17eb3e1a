/// Signed membership operations: every member sends the log it holds of each zone it
/// replicates with the peer, and hands what it receives to the engine, which checks each
/// operation (docs/PROTOCOL.md §7.7): members relay the owner's operations and the accepts
/// of persons who joined through them to each other and to the owner.
extension SyncSession {
    /// Sends operations of a zone replicated with the peer.
    mutating func sendMembership(zone: String, _ operations: [[UInt8]], signerLists: [[[UInt8]]] = []) {
        guard state == .active, agreement?.capabilities.contains(.membership) == true,
            zones[zone] != nil, !operations.isEmpty
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

    /// The peer announced a zone both sides replicate: this side's log of it follows (the
    /// engine sends it with `sendMembership`). Sent after every announcement (a resync too):
    /// the peer ignores what it holds.
    mutating func announcedByPeer(_ zone: SessionZone) {
        guard agreement?.capabilities.contains(.membership) == true else { return }
        out.notify(.membershipWanted(zone: zone.zone))
    }

    /// Operations from the peer: passed on to the engine, which checks each against the
    /// zone's owner (from a participant, the owner takes only accepts, as joins it
    /// ratifies); ignored and logged for a zone not replicated with the peer (no log here to
    /// add them to).
    mutating func receiveMembership(_ message: MembershipOperationsMessage) {
        guard zones[message.zone] != nil else {
            out.log(
                .info,
                "ignored \(message.operations.count) membership operations of zone \(message.zone), "
                    + "which is not replicated with this peer")
            return
        }
        out.notify(
            .membershipReceived(
                zone: message.zone, operations: message.operations, signerLists: message.signerLists))
    }
}
