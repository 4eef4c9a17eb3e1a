import Store
import Support

/// The signed membership log on the wire: the owner issues operations (at start, and after
/// each commit touching an owned share's records) and sends them to the connections
/// replicating the zone; a participant checks and stores what its owner sends.
///
/// What writes the owner's logs holds `membershipLogWriting`: the loop's reconciling, and a
/// join or leave storing a participant's operation. Two reconciles at once would both sign
/// what the log lacks (a duplicate invitation); a reconcile between a join's admission and
/// the storing of its accept would sign an invitation the accept makes needless.
extension ReplicationEngine {
    /// Signs what the logs of owned shares lack (every owned share when `zones` is nil) and
    /// pushes the new operations. Runs on the engine's loop, never on a commit.
    func issueMembership(zones: Set<String>?) {
        membershipLogWriting.withLock { issueMembershipHoldingLock(zones: zones) }
    }

    /// `issueMembership`, for a caller holding `membershipLogWriting`.
    func issueMembershipHoldingLock(zones: Set<String>?) {
        let issuer = MembershipIssuer(library: library, identity: identity)
        let issued = issuer.reconcile(zones: zones) { zone, error in
            logger.log(.warning, "could not issue the membership operations of zone \(zone): \(error)")
        }
        for (zone, operations) in issued.sorted(by: { $0.key < $1.key }) {
            logger.log(.info, "issued \(operations.count) membership operations for zone \(zone)")
            pushMembership(zone: zone, operations: operations.map(\.encoded))
        }
    }

    /// Sends `operations` of `zone` (issued or stored here) to the connections replicating
    /// the zone.
    func pushMembership(zone: String, operations: [[UInt8]], except sender: PeerConnection? = nil) {
        let lists = signerLists(of: operations)
        let connections = state.withLock { $0.current }
        for connection in connections
        where connection !== sender && connection.status.withLock({ $0.zones.contains(zone) }) {
            connection.post(.sendMembership(zone: zone, operations: operations, signerLists: lists))
        }
    }

    /// The stored device lists (entries, founding first) of the persons other than this
    /// library's who signed any of `operations` (accepts and leaves): a participant needs
    /// them to check those operations.
    func signerLists(of operations: [[UInt8]]) -> [[[UInt8]]] {
        let store = library.privateStore
        let local = try? store.localPerson()
        let persons = Set(operations.compactMap { try? MembershipOperation(decoding: $0).signerPerson })
        return persons.subtracting(local.map { [$0] } ?? []).sorted {
            $0.bytes.lexicographicallyPrecedes($1.bytes)
        }
        .compactMap { person in
            guard let entries = try? store.deviceListEntries(of: person), !entries.isEmpty else { return nil }
            return entries
        }
    }

    /// What the log follows changed without a commit (a share URL made or revoked): the
    /// engine's loop issues what the zone's log lacks.
    public func membershipRecordsChanged(zone: String) {
        state.withLock { _ = $0.membershipTouched.insert(zone) }
        wakeLoop()
    }

    /// Sends `connection` the whole log of each zone among `zones` (the session drops any it
    /// does not replicate with the peer). The owner sends it to every member; a participant
    /// to the owner (which ratifies the accepts it lacks) and, while the owner is away, to
    /// fellow members.
    func sendMembershipLogs(on connection: PeerConnection, zones: [String]) {
        let peer = connection.peer
        for zone in zones {
            let entry = state.withLock { $0.membership.zones(with: peer).first { $0.zone == zone } }
            let owners = entry.map { $0.localIsOwner || $0.peerIsOwner } ?? false
            guard owners || !ownerConnected(zone: zone) else { continue }
            do {
                let operations = try library.store(holdingZone: zone).membershipOperations(zone: zone)
                if !operations.isEmpty {
                    connection.post(
                        .sendMembership(
                            zone: zone, operations: operations, signerLists: signerLists(of: operations)))
                }
            } catch {
                logger.log(
                    .warning, "could not read the membership operations of zone \(zone): \(error)",
                    peer: connection.peer)
            }
        }
    }

    /// Operations a member of `zone` sent. For a zone owned here, the accepts among them are
    /// joins a member admitted while this owner was away, ratified here (`ratify`). For a
    /// zone taken part in, each is checked and stored if it checks (logged if not), the
    /// members the log admits are updated, and what was new goes on to the other members.
    func receivedMembership(
        zone: String, operations: [[UInt8]], signerLists: [[[UInt8]]] = [], from connection: PeerConnection
    ) {
        let peer = connection.peer
        do {
            let owned = state.withLock {
                $0.membership.zones(with: peer).contains { $0.zone == zone && $0.localIsOwner }
            }
            // Another device of this person, for a share the person owns: its log is this
            // one's too (what it signed, and the joins it admitted), checked and kept whole.
            let fromSibling = state.withLock { $0.membership.siblings.contains(peer) }
            if owned && !fromSibling {
                ratify(zone: zone, operations: operations, signerLists: signerLists, from: connection)
                return
            }
            let kind: StoreKind = owned ? .private : .shared
            let held = try library.store(kind).membershipOperationHashes(zone: zone)
            guard operations.contains(where: { !held.contains(SHA256Hasher.digest($0)) }) else { return }
            let sender = connection.status.withLock { $0.person }
            let outcome = try membershipLogWriting.withLock {
                try MembershipIntake.receive(
                    operations, zone: zone, library: library, sender: sender, signerLists: signerLists,
                    in: kind)
            }
            for reason in outcome.refused {
                logger.log(.warning, "refused a membership operation of zone \(zone): \(reason)", peer: peer)
            }
            if !outcome.kept.isEmpty {
                logger.log(
                    .info, "stored \(outcome.kept.count) membership operations of zone \(zone)", peer: peer)
                // The owner pushes its log to every member it is connected to: pass on only
                // while it is away (as signed sets, `relaySets`).
                if !ownerConnected(zone: zone) {
                    pushMembership(zone: zone, operations: outcome.kept, except: connection)
                }
                // A share this person owns, its log from a sibling: this device signs what the
                // log lacks of its own records (its URL token). Its records may have arrived
                // first, when the issuer skipped the zone for want of a log to add to.
                if owned { membershipRecordsChanged(zone: zone) }
                refreshMembership()
            }
        } catch {
            logger.log(
                .warning, "could not check the membership operations of zone \(zone): \(error)", peer: peer)
        }
    }

    /// The accepts a member relayed for `zone`, owned here, that this log lacks: persons who
    /// joined through a member while this owner was away. Each is checked as a join request
    /// carrying it would be (`JoinHandler.respond`: the invitation or token, the accept's
    /// signature, the joiner's device list relayed with it); one that checks records the
    /// joiner as accepted, and its accept goes on to the other members. One that does not is
    /// logged, and the joiner's changes are refused here as any non-member's.
    private func ratify(
        zone: String, operations: [[UInt8]], signerLists: [[[UInt8]]], from connection: PeerConnection
    ) {
        let held = (try? library.privateStore.membershipOperationHashes(zone: zone)) ?? []
        let accepts = operations.compactMap { try? MembershipOperation(decoding: $0) }.filter {
            guard !held.contains($0.hash), case .accept = $0.action else { return false }
            return true
        }
        guard !accepts.isEmpty else { return }
        let lists = signerLists.compactMap { try? PersonProof.list($0) }
        var published: [(String, [[UInt8]])] = []
        membershipLogWriting.withLock {
            for accept in accepts {
                guard case .accept(let person, let device, _) = accept.action else { continue }
                let request = ShareMembership.ratification(zone: zone, accepts: [accept])
                let response = JoinHandler.respond(
                    to: request, from: device, person: lists.first { $0.person == person }, library: library,
                    relayed: true
                ) { published.append(($0, $1)) }
                switch response {
                case .accepted:
                    logger.log(
                        .info, "ratified the join of device \(device) to zone \(zone), admitted by a member",
                        peer: connection.peer)
                case .refused(_, let message):
                    logger.log(
                        .warning,
                        "did not ratify the join of device \(device) to zone \(zone) relayed by a member: \(message)",
                        peer: connection.peer)
                case .acceptTooEarly:
                    logger.log(
                        .warning,
                        "did not ratify the join of device \(device) to zone \(zone) relayed by a member: its "
                            + "accept is dated before the invitation it needs",
                        peer: connection.peer)
                }
            }
        }
        for (zone, operations) in published { pushMembership(zone: zone, operations: operations) }
        if !published.isEmpty { applyMembership() }
    }
}
