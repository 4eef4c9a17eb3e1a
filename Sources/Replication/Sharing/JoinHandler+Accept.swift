import Store

/// The owner's check of the signed accepts a join request carries (docs/PROTOCOL.md §10).
///
/// Why before admitting: a join whose accept does not check (forged, another device or
/// person, another zone, another token) is refused and changes nothing; one the log would
/// set aside only because it is dated before the invitation or token it needs (the joiner's
/// clock behind the owner's) is answered with the owner's clock, so that the joiner signs
/// again after it.
extension JoinHandler {
    /// What to do with a join's accepts.
    enum AcceptVerdict: Equatable {
        /// No accept to keep: none was sent, or none takes effect (the admission then says why).
        case none
        /// The accept to store and push once the joiner is admitted.
        case keep(MembershipOperation)
        /// The accept takes effect but changes nothing (the log holds the device accepted
        /// already, a device accepting the same share again): admitted, nothing stored. Each
        /// one kept would spend a place of the person's share of the log (`MembershipLog`).
        /// Carries the accept for the one case it is kept: relayed by a member that holds it.
        case unchanged(MembershipOperation)
        /// The accepts are dated before what they need: answer with this clock reading.
        case tooEarly(clock: UInt64)
    }

    /// Why a join's accept was refused: the message of an `invalid_accept` refusal.
    struct AcceptRefusal: Error {
        let message: String
    }

    /// Checks the accepts of `request` from `peer`, whose device list proven on the
    /// connection is `person`, against the log of the zone this library owns.
    static func verdict(
        on request: JoinRequest, from peer: PeerID, person: DeviceList?, library: Library
    ) throws -> AcceptVerdict {
        guard !request.accepts.isEmpty else { return .none }
        guard let person else {
            throw AcceptRefusal(
                message: "a join's accept needs the joining device's device list, sent after the hello")
        }
        let store = library.privateStore
        guard let share = try store.share(request.zone), share.zone != LibraryStore.defaultZone,
            let owner = try share.ownerPerson ?? store.localPerson()
        else { return .none }
        let stored = try StoredMembership.load(
            zone: request.zone, owner: owner, from: store, privateStore: store, also: [person])
        return try verdict(on: request, from: peer, person: person, in: stored, clock: store)
    }

    /// Checks the accepts of `request` against `stored`, the zone's log as this library
    /// holds it (the owner's, or a member's that admits while the owner is away); `clock`
    /// gives the reading a too-early answer carries.
    static func verdict(
        on request: JoinRequest, from peer: PeerID, person: DeviceList, in stored: StoredMembership,
        clock: LibraryStore
    ) throws(AcceptRefusal) -> AcceptVerdict {
        guard !request.accepts.isEmpty else { return .none }
        var candidates: [MembershipOperation] = []
        for bytes in request.accepts {
            candidates.append(try checked(bytes, of: request, from: peer, person: person.person, in: stored))
        }
        for candidate in candidates {
            var trial = stored.log
            try? trial.receive(candidate, directory: stored.directory)
            if trial.rejection(of: candidate.hash) == nil {
                return trial.state == stored.log.state ? .unchanged(candidate) : .keep(candidate)
            }
        }
        let latest = stored.log.operations.map(\.stamp).max() ?? 0
        if candidates.contains(where: { $0.stamp <= latest }) { return .tooEarly(clock: clock.nextStamp()) }
        return .none
    }

    /// One accept, checked on its own: an accept by `peer` as `person` of the request's zone
    /// (with the request's token, if any), signed by `peer`'s key on `person`'s list.
    private static func checked(
        _ bytes: [UInt8], of request: JoinRequest, from peer: PeerID, person: PersonID,
        in stored: StoredMembership
    ) throws(AcceptRefusal) -> MembershipOperation {
        let operation: MembershipOperation
        do throws(MembershipError) {
            operation = try MembershipOperation(decoding: bytes)
        } catch {
            throw AcceptRefusal(message: "the join's accept is malformed: \(error)")
        }
        guard case .accept(let named, let device, let token) = operation.action else {
            throw AcceptRefusal(
                message: "the join's accept is not an accept: it would \(operation.action.name)")
        }
        guard operation.signer == peer else {
            throw AcceptRefusal(
                message:
                    "the join's accept is signed by device \(operation.signer), not the joining device \(peer)"
            )
        }
        guard device == peer else {
            throw AcceptRefusal(
                message: "the join's accept names device \(device), not the joining device \(peer)")
        }
        guard named == person else {
            throw AcceptRefusal(
                message: "the join's accept names person \(named), not the joining device's person \(person)")
        }
        if let token, token != Array(request.token.utf8) {
            throw AcceptRefusal(message: "the join's accept carries another token than the join request")
        }
        var trial = stored.log
        do throws(MembershipError) {
            try trial.receive(operation, directory: stored.directory)
        } catch {
            throw AcceptRefusal(message: "the join's accept does not check: \(error)")
        }
        return operation
    }
}
