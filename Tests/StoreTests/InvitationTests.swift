import TestSupport
import Testing

@testable import Store

@Suite struct InvitationTests {
    @Test func aTokenIsStableUntilRevokedAndKeptOnlyAsAHash() throws {
        let pair = try SharedPair()
        let library = pair.owner.library
        let token = try library.currentInvitation(zone: pair.zone).token
        #expect(token.count == 32)
        #expect(try library.currentInvitation(zone: pair.zone).token == token)
        #expect(try pair.owner.priv.isValidInvitation(zone: pair.zone, token: token))
        let stored = try pair.owner.priv.read { db in
            try db.query("SELECT token_hash FROM invitations") { $0.string(0) }
        }
        #expect(stored.count == 1 && stored[0] != token && !stored[0].contains(token))
        let fresh = try library.revokeInvitations(zone: pair.zone)
        #expect(fresh != token)
        #expect(try !pair.owner.priv.isValidInvitation(zone: pair.zone, token: token))
        #expect(try pair.owner.priv.isValidInvitation(zone: pair.zone, token: fresh))
    }

    /// Only the call that makes a share's token says so: the membership log learns it once.
    @Test func theFirstCallMakesTheTokenAndLaterOnesFindIt() throws {
        let pair = try SharedPair()
        let first = try pair.owner.library.currentInvitation(zone: pair.zone)
        let again = try pair.owner.library.currentInvitation(zone: pair.zone)
        #expect(first.made && !again.made)
        #expect(again.token == first.token)
    }

    /// A revocation before any URL was made still rules out the first generation's URL, in
    /// one transaction, and only the owner may revoke.
    @Test func revokingBeforeAnyURLWasMadeRulesOutTheFirstURL() throws {
        let pair = try SharedPair()
        let library = pair.owner.library
        let first = LibraryStore.token(zone: pair.zone, generation: 1, secret: library.inviteSecret)
        let fresh = try library.revokeInvitations(zone: pair.zone)
        #expect(fresh != first)
        let current = try library.currentInvitation(zone: pair.zone)
        #expect(current.token == fresh && !current.made)
        #expect(try pair.owner.priv.isValidInvitation(zone: pair.zone, token: fresh))
        #expect(try !pair.owner.priv.isValidInvitation(zone: pair.zone, token: first))
        #expect(throws: StoreError.self) { try pair.participant.library.revokeInvitations(zone: pair.zone) }
    }

    @Test func onlyTheOwnerHasAURL() throws {
        let pair = try SharedPair()
        #expect(throws: StoreError.self) {
            try pair.participant.library.currentInvitation(zone: pair.zone).token
        }
    }

    @Test func admissionFollowsTheSharesRules() throws {
        let pair = try SharedPair()
        let store = pair.owner.priv
        let stranger = randomPeer()
        #expect(
            throws: StoreError.joinRequested(
                "this share is private and you are not invited yet: your request to join went to the owner; "
                    + "accept the URL again once they approve it (or invite your peer ID (\(stranger)))")
        ) { try store.admit(peer: stranger, zone: pair.zone, tokenIsValid: true) }
        #expect(try store.pendingJoinRequests(zone: pair.zone).map(\.device) == [stranger])
        #expect(
            throws: StoreError.permissionDenied(
                "this share URL has been revoked or is not valid: ask the owner for a new one")
        ) { try store.admit(peer: stranger, zone: pair.zone, tokenIsValid: false) }
        try store.setParticipant(zone: pair.zone, peer: stranger, permission: .readOnly, status: .pending)
        #expect(try store.admit(peer: stranger, zone: pair.zone, tokenIsValid: true) == .readOnly)
        #expect(try store.participant(zone: pair.zone, peer: stranger)?.status == .accepted)
        try store.setParticipant(zone: pair.zone, peer: stranger, status: .removed)
        #expect(
            throws: StoreError.permissionDenied(
                "you were removed from this share: the owner must invite you again")
        ) { try store.admit(peer: stranger, zone: pair.zone, tokenIsValid: true) }
        #expect(throws: StoreError.invalid("this is your own share: you cannot accept it")) {
            try store.admit(peer: pair.owner.peer, zone: pair.zone, tokenIsValid: true)
        }
        #expect(throws: StoreError.unknownZone("nope")) {
            try store.admit(peer: stranger, zone: "nope", tokenIsValid: true)
        }
    }

    @Test func aPublicShareAdmitsAnyoneWithItsPermission() throws {
        let owner = try TestLibrary()
        let photo = try owner.addPhoto("a.jpg")
        let zone = try owner.priv.createShare(photo: photo, title: "Open", publicPermission: .readWrite)
        let visitor = randomPeer()
        #expect(try owner.priv.admit(peer: visitor, zone: zone, tokenIsValid: true) == .readWrite)
        #expect(try owner.priv.participant(zone: zone, peer: visitor)?.permission == .readWrite)
    }

    @Test func leavingPurgesAtOnceAndRemembersToTellTheOwner() throws {
        let pair = try SharedPair()
        try pair.participant.shared.leave(zone: pair.zone)
        #expect(try pair.participant.shared.photos().isEmpty)
        #expect(try pair.participant.shared.zones().isEmpty)
        #expect(try pair.participant.shared.departures(toldTo: pair.owner.peer) == [pair.zone])
        try pair.owner.priv.participantLeft(zone: pair.zone, peer: pair.participant.peer)
        #expect(
            try pair.owner.priv.participant(zone: pair.zone, peer: pair.participant.peer)?.status == .removed)
        try pair.participant.shared.departureAcknowledged(zone: pair.zone)
        #expect(try pair.participant.shared.departures(toldTo: pair.owner.peer).isEmpty)
    }

    /// The leave told to the owner is dated when the participant left, however late it is
    /// told: the departure keeps that stamp, read once (a leave stamped at each telling would
    /// fall after what the owner did meanwhile, such as inviting the person again).
    @Test func aDepartureKeepsTheStampOfItsLeaveTakenWhenTheShareWasLeft() throws {
        let pair = try SharedPair()
        let store = pair.participant.shared
        let before = store.nextStamp()
        try store.leave(zone: pair.zone)
        let after = store.nextStamp()
        let departure = try #require(try store.pendingDepartures().first)
        let stamp = try #require(departure.stamp)
        #expect(stamp > before && stamp < after)
        #expect(departure.owner == pair.owner.peer && departure.zone == pair.zone)
        _ = store.nextStamp()
        #expect(try store.pendingDepartures().map(\.stamp) == [stamp])
        let reopened = try pair.participant.reopen()
        defer { reopened.close() }
        #expect(try reopened.sharedStore.pendingDepartures().map(\.stamp) == [stamp])
    }

    /// The copy goes only with its departure recorded, in one transaction: a leave whose
    /// departure cannot be written purges nothing (before, the copy went first, and a daemon
    /// killed between the two never told the owner).
    @Test func aLeaveWhoseDepartureCannotBeRecordedKeepsTheCopy() throws {
        let pair = try SharedPair()
        let store = pair.participant.shared
        let photos = try store.photos()
        #expect(!photos.isEmpty)
        try store.writeLocal { db in try db.execute("DROP TABLE departures") }
        #expect(throws: (any Error).self) { try store.leave(zone: pair.zone) }
        #expect(try store.zones().map(\.id) == [pair.zone])
        #expect(try store.photos() == photos)
    }

    /// A departure recorded by the previous version (schema 21) has no stamp: it is still told,
    /// its leave stamped when told.
    @Test func aDepartureTheSchema21StoreRecordedOpensWithoutAStamp() throws {
        let pair = try SharedPair()
        try pair.participant.shared.leave(zone: pair.zone)
        try pair.participant.shared.writeLocal { db in try db.execute(SchemaDowngrade.fromLatest(to: 21)) }
        let reopened = try pair.participant.reopen()
        defer { reopened.close() }
        #expect(try isAtLatestSchema(reopened.sharedStore))
        let departures = try reopened.sharedStore.pendingDepartures()
        #expect(departures.map(\.zone) == [pair.zone] && departures.map(\.owner) == [pair.owner.peer])
        #expect(departures.map(\.stamp) == [nil])
    }
}

/// Join requests on the owner's side: kept once each, denied ones remembered, and no more
/// than `max_join_requests` waiting.
@Suite struct JoinRequestStoreTests {
    @Test func requestsAreKeptOnceDeniedOnesStayDeniedAndTheLimitHolds() throws {
        let owner = try TestLibrary(limits: StoreLimits(maxJoinRequests: 2))
        let photo = try owner.addPhoto("beach.jpg")
        let zone = try owner.priv.createShare(photo: photo, title: "Holidays", publicPermission: .none)
        let (first, second, third) = (randomPeer(), randomPeer(), randomPeer())
        for peer in [first, first, second] {
            #expect(throws: StoreError.self) {
                try owner.priv.admit(peer: peer, zone: zone, tokenIsValid: true)
            }
        }
        #expect(
            try owner.priv.pendingJoinRequests(zone: zone).map(\.device).sorted() == [first, second].sorted())
        #expect(
            throws: StoreError.permissionDenied(
                "this share is private and 2 requests to join it are waiting already: the owner must invite "
                    + "your peer ID (\(third))")
        ) { try owner.priv.admit(peer: third, zone: zone, tokenIsValid: true) }

        let request = try #require(
            try owner.priv.pendingJoinRequests(zone: zone).first { $0.device == first })
        try owner.priv.denyJoinRequest(request)
        #expect(
            throws: StoreError.permissionDenied(
                "the owner declined your request to join this share: they must invite your peer ID (\(first))"
            )
        ) { try owner.priv.admit(peer: first, zone: zone, tokenIsValid: true) }
        #expect(try owner.priv.pendingJoinRequests(zone: zone).map(\.device) == [second])

        let other = try #require(try owner.priv.pendingJoinRequests(zone: zone).first)
        try owner.priv.approveJoinRequest(other, permission: .readWrite)
        #expect(try owner.priv.pendingJoinRequests(zone: zone) == [])
        #expect(try owner.priv.admit(peer: second, zone: zone, tokenIsValid: true) == .readWrite)
    }
}
