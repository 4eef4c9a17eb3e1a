import Store
import Support

/// Sharing as the engine runs it, for the daemon's `accept`, `share leave` and for guests:
/// the participant joins and leaves; the owner answers every sharing message a connection
/// brings (join requests, membership checks, leave notices; `JoinHandler`) and hears zone
/// revocations (`ReplicationEngine+Revocation`). The membership upkeep
/// (`MembershipUpkeep`) does the rest on its own thread.
extension ReplicationEngine {
    /// Joins the share of `url` (`peershare accept`): a copy this peer was removed from, or
    /// of a stopped share, goes first, and replication forgets the zone, so that joining
    /// again starts it afresh; then the owner is asked (told where this peer listens) and,
    /// once it accepts, the zone is replicated with it. Blocks on the network.
    public func accept(_ url: ShareURL, timeout: Duration = .seconds(10)) throws(AcceptError)
        -> ShareJoiner.Joined
    {
        let discarded: Bool
        do {
            discarded = try ShareJoiner.discardRevokedCopy(of: url.zone, library: library)
        } catch {
            throw .local("\(error)")
        }
        if discarded {
            logger.log(
                .info, "purged this peer's ended copy of share \(url.zone) before joining it again",
                peer: url.owner)
            refreshMembership()
        }
        let joined: ShareJoiner.Joined
        do {
            joined = try ShareJoiner.join(
                url, identity: identity, library: library, advertised: advertisedAddresses(),
                deviceList: currentDeviceList, timeout: timeout)
        } catch .alreadyMember(let zone) {
            // The same URL again, or a newer one: where the owner listens may be news.
            tryAddresses(url.ownerAddresses, of: url.owner)
            throw .alreadyMember(zone: zone)
        }
        if let via = joined.via {
            logger.log(
                .info, "joined share \(joined.zone) through member \(via): the owner is away", peer: url.owner
            )
        } else {
            logger.log(.info, "joined share \(joined.zone)", peer: url.owner)
        }
        refreshMembership()
        return joined
    }

    /// A URL names `addresses` for `peer`: they are kept beside what else is known and, if one
    /// is new and the peer is not connected, dialed at once.
    func tryAddresses(_ addresses: [PeerAddress], of peer: PeerID) {
        let dial = state.withLock { state -> Bool in
            guard state.book.hint(addresses, of: peer), state.records[peer]?.current == nil else {
                return false
            }
            state.records[peer, default: PeerRecord()].nextDial = nil
            return true
        }
        logger.log(
            .info,
            "the share URL gives \(addresses.map(\.description).joined(separator: ", "))"
                + (dial ? ": dialing" : ""), peer: peer)
        if dial { wakeLoop() }
    }

    /// Leaves `zone`, a share someone else owns (`peershare share leave`): the copy is
    /// purged at once and the owner is told as soon as it can be reached (the membership
    /// upkeep retries until it has heard). Throws the store's error for a zone this store
    /// does not hold.
    public func leave(zone: String) throws {
        try library.sharedStore.leave(zone: zone)
        refreshMembership()
        checkMemberships()
    }

    /// A sharing message from a connection's peer: a zone revoked by its owner is handled
    /// here; the others (join, leave, membership check) are answered by `JoinHandler`.
    /// Membership is then refreshed, as the message may have changed it, and the address a
    /// guest gave is recorded if it is now a member.
    func connection(_ connection: PeerConnection, sharing frame: Frame) -> [Frame] {
        // An answer is never answered: a daemon that answers `unexpected` to a message it
        // does not know (a previous release, told the zones of a sibling) would otherwise
        // trade answers with this one for ever.
        if frame.type == .joinResponse {
            logger.log(.info, "ignored a sharing answer nothing here asked for", peer: connection.peer)
            return []
        }
        if frame.type == .siblingZones, connection.purpose != .link {
            receivedSiblingZones(frame, from: connection)
            return []
        }
        guard (connection.purpose == .link) == (frame.type == .linkRequest) else {
            let what =
                connection.purpose == .link
                ? "a link connection takes only a link request" : "a link request needs a link connection"
            return [JoinResponse.refused(code: .unexpected, message: what).frame]
        }
        if frame.type == .linkRequest { return [linkRequested(frame, on: connection).frame] }
        let replies: [Frame]
        if frame.type == .zoneRevoked {
            revoked(frame, by: connection.peer)
            replies = []
        } else {
            let person = connection.status.withLock { $0.person }
            var published: [(String, [[UInt8]])] = []
            let answer = {
                if frame.type == .joinRequest, let request = try? JoinRequest(frame: frame),
                    MemberAdmission.answers(request.zone, library: self.library)
                {
                    // The owner is away: the joiner asks a member the share URL lists.
                    return [
                        MemberAdmission.respond(
                            to: request, from: connection.peer, person: person,
                            address: self.announcedAddress(of: connection), library: self.library
                        ) { published.append(($0, $1)) }.frame
                    ]
                }
                return JoinHandler.answer(frame, from: connection.peer, person: person, library: self.library)
                {
                    published.append(($0, $1))
                }
            }
            if frame.type == .joinRequest || frame.type == .leaveNotice {
                // They may store an operation in an owned log: one writer at a time.
                replies = membershipLogWriting.withLock {
                    // The invitation or token a joiner's accept needs must be in the log first.
                    if frame.type == .joinRequest, let zone = try? JoinRequest(frame: frame).zone {
                        issueMembershipHoldingLock(zones: [zone])
                    }
                    return answer()
                }
            } else {
                replies = answer()
            }
            for (zone, operations) in published {
                logger.log(
                    .info, "stored a participant's membership operation of zone \(zone)",
                    peer: connection.peer)
                pushMembership(zone: zone, operations: operations)
            }
            // The joiner dials for replication as soon as it reads the answer: it must find
            // itself a member then, not once the loop has re-read membership.
            if frame.type == .joinRequest { applyMembership() }
            if frame.type == .joinRequest, let reply = replies.first,
                case .refused(.joinRequested, _)? = try? JoinResponse(frame: reply),
                let zone = try? JoinRequest(frame: frame).zone
            {
                emit(.joinRequested(connection.peer, zone: zone))
            }
        }
        IOThread.detach { [weak self] in
            self?.refreshMembership()
            self?.recordAddress(of: connection)
        }
        return replies
    }
}
