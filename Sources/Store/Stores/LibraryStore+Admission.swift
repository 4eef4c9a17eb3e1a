/// The owner's side of `accept`: deciding whether a peer presenting a share URL's token may
/// join, and with which permission, and recording it as an accepted participant.
extension LibraryStore {
    /// Admits `peer` into the share `zone` if `tokenIsValid` and the share's rules allow it:
    /// its own record, or an invitation under its proven `person`, which its record takes over;
    /// returns the permission it joins with. Recording the person itself is the caller's
    /// (`notePerson`). Throws `StoreError.permissionDenied` or
    /// `.unknownZone` with a message for the person accepting.
    public func admit(peer: PeerID, person: PersonID? = nil, zone: String, tokenIsValid: Bool) throws
        -> Permission
    {
        guard kind == .private, zone != Self.defaultZone,
            try read({ db in try ownerSide(of: zone, db)?.includes(localPeer) }) == true
        else {
            throw StoreError.unknownZone(zone)
        }
        guard peer != localPeer else {
            throw StoreError.invalid("this is your own share: you cannot accept it")
        }
        guard !(try read { db in try isStopped(zone, db) }) else {
            throw StoreError.permissionDenied("the owner has stopped sharing this share")
        }
        guard tokenIsValid else {
            throw StoreError.permissionDenied(
                "this share URL has been revoked or is not valid: ask the owner for a new one")
        }
        // The device's own record, or else an invitation of its person, which it takes over.
        var record = try participant(zone: zone, peer: peer)
        var personRecord: Participant?
        if record == nil, let person {
            personRecord = try participant(zone: zone, peer: PeerID(digest: person.bytes)!)
            record = personRecord
        }
        let share = try share(zone)
        let permission: Permission
        switch record?.status {
        case .removed:
            throw StoreError.permissionDenied(
                "you were removed from this share: the owner must invite you again")
        case .pending, .accepted:
            permission = record!.permission == .none ? .readOnly : record!.permission
        case nil:
            guard let share, share.publicPermission != .none else {
                let who = person.map { "your person ID (\($0))" } ?? "your peer ID (\(peer))"
                switch try recordJoinRequest(zone: zone, device: peer, person: person) {
                case .recorded:
                    throw StoreError.joinRequested(
                        "this share is private and you are not invited yet: your request to join went to the "
                            + "owner; accept the URL again once they approve it (or invite \(who))")
                case .denied:
                    throw StoreError.permissionDenied(
                        "the owner declined your request to join this share: they must invite \(who)")
                case .full:
                    throw StoreError.permissionDenied(
                        "this share is private and \(limits.maxJoinRequests) requests to join it are "
                            + "waiting already: the owner must invite \(who)")
                }
            }
            permission = share.publicPermission
        }
        if let personRecord {
            try write(author: .local) { tx in
                try tx.set(
                    .participant, Self.participantID(zone: zone, peer: peer), zone: zone,
                    [
                        (ParticipantField.peer, .text(peer.description)),
                        (ParticipantField.permission, .text(permission.rawValue)),
                        (ParticipantField.status, .text(ParticipantStatus.accepted.rawValue)),
                        (ParticipantField.person, .text(person!.description)),
                    ])
                try tx.delete(
                    .participant, Self.participantID(zone: zone, peer: personRecord.peer), zone: zone)
            }
        } else if record?.status != .accepted || record?.permission != permission {
            try setParticipant(zone: zone, peer: peer, permission: permission, status: .accepted)
        }
        return permission
    }
}
