import Store
import Support

/// The owner's side of the sharing messages: join requests (check the token and the
/// share's rules, record the participant as accepted), membership checks and leave notices.
enum JoinHandler {
    /// Answers one sharing frame from `peer`, whose checked device list (if it sent one)
    /// is `person`.
    /// Membership operations it stored (a joiner's accept, a leaver's leave) go to `publish`
    /// with their zone, for the engine to push like those it issues.
    static func answer(
        _ frame: Frame, from peer: PeerID, person: DeviceList? = nil, library: Library,
        publish: (String, [[UInt8]]) -> Void = { _, _ in }
    ) -> [Frame] {
        do throws(WireError) {
            switch frame.type {
            case .joinRequest:
                return [
                    respond(
                        to: try JoinRequest(frame: frame), from: peer, person: person, library: library,
                        publish: publish
                    ).frame
                ]
            case .membershipCheck:
                return [check(try ZoneNotice(frame: frame).zone, of: peer, library: library).frame]
            case .leaveNotice:
                return [
                    leave(
                        try ZoneNotice(frame: frame), by: peer, person: person, library: library,
                        publish: publish
                    )
                    .frame
                ]
            default:
                return [JoinResponse.refused(code: .unexpected, message: "unexpected sharing message").frame]
            }
        } catch {
            return [JoinResponse.refused(code: .protocolError, message: error.description).frame]
        }
    }

    /// Admits `peer` if the token and the share's rules allow it: an invitation of the
    /// device, or of its person, or the public permission. The request's accepts are checked
    /// first (`verdict`): one that does not check refuses the join, changing nothing; the one
    /// the log takes is stored once the joiner is admitted and goes to `publish`. The
    /// person's device list is kept only once it is admitted.
    ///
    /// `relayed`: the accept came in a member's log (`ReplicationEngine.ratify`), which holds
    /// it already; it is stored even if it changes nothing here.
    ///
    /// A request without a token stands for a join a member admitted while this owner was
    /// away (the member relays the joiner's accept, or the joiner asks itself): a person's
    /// accept names no token, and the log's invitation of the person, which such an accept
    /// needs, stands in for the URL's token. A URL's token is never empty.
    static func respond(
        to request: JoinRequest, from peer: PeerID, person: DeviceList? = nil, library: Library,
        relayed: Bool = false, publish: (String, [[UInt8]]) -> Void = { _, _ in }
    ) -> JoinResponse {
        let store = library.privateStore
        do {
            let tokenIsValid =
                try store.isValidInvitation(zone: request.zone, token: request.token)
                || tokenIsLiveInLog(request.token, zone: request.zone, library: library)
            // The accepts are checked once: for a valid token, or for a request without one.
            let checked =
                tokenIsValid || request.token.isEmpty
                ? try verdict(on: request, from: peer, person: person, library: library) : .none
            var valid = tokenIsValid
            var accept: MembershipOperation?
            switch checked {
            case .none: break
            case .keep(let operation):
                valid = true
                accept = operation
            case .unchanged(let operation):
                valid = true
                // A member holds it already: kept here too, so that every log holds the same
                // operations (the owner's push brings it to the other members).
                if relayed { accept = operation }
            case .tooEarly(let clock):
                if tokenIsValid { return .acceptTooEarly(clock: clock) }
            }
            // The joiner's device list remembered, and the accept stored and pushed.
            func keepAccept() throws {
                if let person { try store.remember(person, of: peer) }
                guard let accept else { return }
                try store.addMembershipOperations([(accept.hash, accept.encoded)], zone: request.zone)
                publish(request.zone, [accept.encoded])
            }
            let permission: Permission
            do {
                permission = try store.admit(
                    peer: peer, person: person?.person, zone: request.zone, tokenIsValid: valid)
            } catch {
                // A member relays an accept its log holds and this log takes, of a device not
                // admitted here (its leave, told first, is after the accept in the fold): kept
                // all the same, so that every log holds the same operations.
                if relayed, accept != nil { try keepAccept() }
                throw error
            }
            try keepAccept()
            let title = try store.share(request.zone)?.title ?? ""
            return .accepted(title: title, permission: permission)
        } catch let refusal as AcceptRefusal {
            return .refused(code: .invalidAccept, message: refusal.message)
        } catch let error as StoreError {
            if case .unknownZone = error { return unknownShare(request.zone) }
            return .refused(code: SharingRefusalCode(rawValue: error.code), message: error.description)
        } catch {
            return .refused(code: .internalError, message: "the owner could not check the invitation")
        }
    }

    /// Whether `token` is a live URL token of `zone`'s signed log: one another device of
    /// this person made (each device keeps only its own tokens' hashes; the log holds all).
    static func tokenIsLiveInLog(_ token: String, zone: String, library: Library) -> Bool {
        let store = library.privateStore
        guard !token.isEmpty, let share = try? store.share(zone),
            let owner = share.ownerPerson ?? (try? store.localPerson()),
            let stored = try? StoredMembership.load(
                zone: zone, owner: owner, from: store, privateStore: store),
            let state = stored.log.state
        else { return false }
        let hash = SHA256Hasher.digest(Array(token.utf8))
        return state.tokens[hash] != nil && !state.revokedTokens.contains(hash)
    }

    /// Whether `peer` still takes part in `zone`: the answer a participant purges on.
    ///
    /// Only a participant of the zone (present or removed) learns anything: to every other
    /// peer the zone does not exist. A removed participant, or one whose share was stopped,
    /// is told so with the zone ID it asked about, never the title (which may have changed
    /// since it last saw it).
    static func check(_ zone: String, of peer: PeerID, library: Library) -> JoinResponse {
        guard let (share, record) = participation(of: peer, in: zone, library: library) else {
            return unknownShare(zone)
        }
        if record.status == .removed {
            return .refused(code: .removed, message: "the owner removed you from share \(zone)")
        }
        if share.stopped {
            return .refused(code: .stopped, message: "the owner stopped share \(zone)")
        }
        return .accepted(
            title: share.title, permission: record.permission == .none ? .readOnly : record.permission)
    }

    /// `peer` left the notice's zone (it has purged its copy): recorded as removed, and the
    /// notice's signed `leave`, if it checks (`LeaveCheck`), stored with the leaver's device
    /// list and given to `publish`. A leave that checks ends the record only where it ends the
    /// log's entry: one told again late, after the owner invited the person anew, leaves the
    /// invitation pending. A peer that never took part is answered as for a zone that does
    /// not exist.
    static func leave(
        _ notice: ZoneNotice, by peer: PeerID, person: DeviceList? = nil, library: Library,
        publish: (String, [[UInt8]]) -> Void = { _, _ in }
    ) -> JoinResponse {
        let zone = notice.zone
        guard let record = participation(of: peer, in: zone, library: library, proven: person)?.1 else {
            return unknownShare(zone)
        }
        var endsRecord = true
        if let bytes = notice.operation, let person,
            let verdict = LeaveCheck.checked(bytes, zone: zone, from: peer, person: person, library: library)
        {
            if let operation = verdict.kept {
                // The leaver's device list goes with its leave: the log, loaded again, checks
                // the leave's signature against it (a device admitted by a member while this
                // owner was away has no list here yet).
                try? library.privateStore.remember(person, of: peer)
                _ = try? library.privateStore.addMembershipOperations(
                    [(operation.hash, operation.encoded)], zone: zone)
                publish(zone, [operation.encoded])
            }
            endsRecord = verdict.endsEntry
        }
        // The record the leave ends: the device's own, or its person's (an invitation of the
        // person a member's admission took while this owner was away), as the log's leave
        // ends the person's entry.
        if endsRecord { try? library.privateStore.participantLeft(zone: zone, peer: record.peer) }
        return .refused(code: .left, message: "you left share \(zone)")
    }

    /// The share `zone` this library owns and `peer`'s record in it, if it has one: the
    /// device's own record, else its person's. `proven`: the device list `peer` proved on its
    /// connection, which names its person even where this library keeps no list of it yet (a
    /// device a member admitted while this owner was away); for that person, a pending
    /// invitation under the person's ID, which no device of it has taken over here yet, is
    /// the last match.
    private static func participation(
        of peer: PeerID, in zone: String, library: Library, proven: DeviceList? = nil
    ) -> (ShareInfo, Participant)? {
        guard let share = try? library.privateStore.share(zone) else { return nil }
        var persons = library.privateStore.personsListing(peer)
        let provenPerson = proven.flatMap { list in
            list.devices.contains { $0.id == peer } ? list.person : nil
        }
        if let provenPerson { persons.append(provenPerson) }
        let invitation = provenPerson.flatMap { PeerID(digest: $0.bytes) }
        guard
            let record = share.participants.first(where: { $0.peer == peer })
                ?? share.participants.first(where: { $0.person.map(persons.contains) ?? false })
                ?? share.participants.first(where: { $0.peer == invitation })
        else { return nil }
        return (share, record)
    }

    private static func unknownShare(_ zone: String) -> JoinResponse {
        .refused(code: .unknownShare, message: "the owner has no share \(zone)")
    }
}
