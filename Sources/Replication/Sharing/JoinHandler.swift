import Store

/// The owner's side of the sharing messages: join requests (check the token and the
/// share's rules, record the participant as accepted), membership checks and leave notices.
enum JoinHandler {
    /// Answers one sharing frame from `peer`, whose checked device list (if it sent one)
    /// is `person`.
    static func answer(_ frame: Frame, from peer: PeerID, person: DeviceList? = nil, library: Library)
        -> [Frame]
    {
        do throws(WireError) {
            switch frame.type {
            case .joinRequest:
                return [
                    respond(to: try JoinRequest(frame: frame), from: peer, person: person, library: library)
                        .frame
                ]
            case .membershipCheck:
                return [check(try ZoneNotice(frame: frame).zone, of: peer, library: library).frame]
            case .leaveNotice:
                return [leave(try ZoneNotice(frame: frame).zone, by: peer, library: library).frame]
            default:
                return [JoinResponse.refused(code: .unexpected, message: "unexpected sharing message").frame]
            }
        } catch {
            return [JoinResponse.refused(code: .protocolError, message: error.description).frame]
        }
    }

    /// Admits `peer` if the token and the share's rules allow it: an invitation of the
    /// device, or of its person, or the public permission. The person's device list is kept
    /// only once it is admitted.
    static func respond(
        to request: JoinRequest, from peer: PeerID, person: DeviceList? = nil, library: Library
    ) -> JoinResponse {
        let store = library.privateStore
        do {
            let valid = try store.isValidInvitation(zone: request.zone, token: request.token)
            let permission = try store.admit(
                peer: peer, person: person?.person, zone: request.zone, tokenIsValid: valid)
            if let person { try store.remember(person, of: peer) }
            let title = try store.share(request.zone)?.title ?? ""
            return .accepted(title: title, permission: permission)
        } catch let error as StoreError {
            if case .unknownZone = error { return unknownShare(request.zone) }
            return .refused(code: SharingRefusalCode(rawValue: error.code), message: error.description)
        } catch {
            return .refused(code: .internalError, message: "the owner could not check the invitation")
        }
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

    /// `peer` left `zone` (it has purged its copy): recorded as removed. A peer that never
    /// took part is answered as for a zone that does not exist.
    static func leave(_ zone: String, by peer: PeerID, library: Library) -> JoinResponse {
        guard participation(of: peer, in: zone, library: library) != nil else { return unknownShare(zone) }
        try? library.privateStore.participantLeft(zone: zone, peer: peer)
        return .refused(code: .left, message: "you left share \(zone)")
    }

    /// The share `zone` this library owns and `peer`'s record in it, if it has one.
    private static func participation(
        of peer: PeerID, in zone: String, library: Library
    ) -> (ShareInfo, Participant)? {
        guard let share = try? library.privateStore.share(zone), share.owner == library.localPeer,
            let record = share.participants.first(where: { $0.peer == peer })
        else { return nil }
        return (share, record)
    }

    private static func unknownShare(_ zone: String) -> JoinResponse {
        .refused(code: .unknownShare, message: "the owner has no share \(zone)")
    }
}
