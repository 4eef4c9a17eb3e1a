import Store

/// The joiner's signed `accept` operations, sent with its join request to an owner that
/// keeps the membership log.
///
/// Why two: the joiner cannot tell whether the owner admits it through an invitation (of
/// its person or its device) or through the URL's token, and the signature fixes the
/// token field. So it signs one without the token and one with it; the owner keeps the one
/// its log takes, and the token text enters the log only for a join by token.
enum JoinAccepts {
    /// The accepts of this device for `zone`, stamped by `library`'s hybrid clock after
    /// `after` (the owner's clock reading, when it said the first ones were dated too
    /// early); empty when this library has no person yet.
    static func sign(
        zone: String, token: String, identity: PeerIdentity, library: Library, after: UInt64? = nil
    ) -> [[UInt8]] {
        guard let person = try? library.privateStore.localPerson() else { return [] }
        if let after { _ = library.sharedStore.moveClock(past: after) }
        let stamp = library.sharedStore.nextStamp()
        return [nil, Array(token.utf8)].map { token in
            accept(zone: zone, token: token, stamp: stamp, identity: identity, person: person).encoded
        }
    }

    /// This device's accept of `zone` without a token, signed now: what a device a member
    /// admitted shows the owner for ratification when it holds no accept of its own (the
    /// member went away, or was removed, before the log holding the first one reached this
    /// device). It takes effect through an invitation of the person; nil without a person.
    static func withoutToken(zone: String, identity: PeerIdentity, library: Library) -> MembershipOperation? {
        guard let person = try? library.privateStore.localPerson() else { return nil }
        return accept(
            zone: zone, token: nil, stamp: library.sharedStore.nextStamp(), identity: identity, person: person
        )
    }

    /// One accept by this device as `person`.
    private static func accept(
        zone: String, token: [UInt8]?, stamp: UInt64, identity: PeerIdentity, person: PersonID
    ) -> MembershipOperation {
        MembershipOperation.signed(
            .accept(person: person, device: identity.peerID, token: token), zone: zone, stamp: stamp,
            by: identity, of: person)
    }
}
