import Store
import TestSupport
import Testing

@testable import Replication

/// A message's sets are checked a run at a time (`SignatureChecks`): the last set of a run of
/// one author's consecutive sets vouches, through the hashes that chain them, for the sets
/// before it, so one Ed25519 check covers the run. Nothing unsigned gets through that way:
/// a run whose last signature fails is checked set by set, and a forged run is refused whole.
@Suite struct SetRelaySignatureTests {
    let owner = SignedSetFixtures.devices[0]
    let writer = SignedSetFixtures.devices[1]
    let library: TestLibrary
    let zone: String

    init() throws {
        library = try TestLibrary(peer: owner.peerID)
        let photo = try library.addPhoto("beach.jpg")
        zone = try library.priv.createShare(photo: photo, title: "Relay", publicPermission: .none)
        try library.priv.setParticipant(
            zone: zone, peer: writer.peerID, permission: .readWrite, status: .accepted)
    }

    /// The body of `writer`'s set creating tag `n`: one change set of one stamp.
    func body(_ n: Int) -> [UInt8] {
        let stamp = Stamp(
            hlc: (UInt64(HybridLogicalClock.wallMilliseconds()) << 16) + UInt64(n), peer: writer.peerID)
        let tag = ObjectChange(
            entity: .tag, id: "00000000-0000-4000-8000-\(String(format: "%012d", n))",
            fields: [
                FieldChange(
                    field: TagField.uuid,
                    value: .text("10000000-0000-4000-8000-\(String(format: "%012d", n))"), stamp: stamp),
                FieldChange(field: TagField.name, value: .text("tag \(n)"), stamp: stamp),
            ])
        return ChangeSetCodec.encode(
            ChangeSet(
                zone: zone, since: VectorClock(), until: VectorClock([writer.peerID: stamp.hlc]),
                objects: [tag]))
    }

    /// Sets 1…count of the writer, signed properly.
    func genuine(_ count: Int) -> [SignedChangeSet] {
        var sets: [SignedChangeSet] = []
        for n in 1...count {
            sets.append(
                SignedChangeSet.sign(
                    zone: zone, seq: UInt64(n), prevHash: sets.last?.hash ?? SignedSetHeader.noPrevious,
                    body: body(n),
                    by: writer))
        }
        return sets
    }

    /// `set` with its signature's first byte changed (its hash changes with it).
    func badlySigned(_ set: SignedChangeSet, prevHash: [UInt8]? = nil) -> SignedChangeSet {
        let h = set.header
        var signature = h.signature
        signature[0] ^= 0xFF
        return SignedChangeSet(
            header: SignedSetHeader(
                zone: h.zone, author: h.author, seq: h.seq, prevHash: prevHash ?? h.prevHash,
                bodyHash: h.bodyHash,
                bodyLength: h.bodyLength, signature: signature),
            body: set.body)
    }

    func relay(_ sets: [SignedChangeSet]) throws -> SetsApplied {
        let relay = SetRelay(localPeer: owner.peerID, localCertificate: owner.certificateDER)
        let message = SignedSetsMessage(
            zone: zone, certificates: [writer.certificateDER], sets: sets.map(\.encoded))
        return try relay.apply(
            message, to: library.priv, relayIsOwner: false, owner: nil, maximumBodyBytes: 1 << 20)
    }

    func tagNames() throws -> Set<String> { Set(try library.priv.tags(zone: zone).map(\.name)) }

    @Test func aLongRunOfOneAuthorIsTakenWhole() throws {
        let outcome = try relay(genuine(300))
        #expect(outcome.stored == 300)
        #expect(try library.priv.signedSetTops(zone: zone)[writer.peerID]?.seq == 300)
        #expect(try tagNames().count == 300)
    }

    @Test func aRunWhoseLastSignatureIsBadKeepsTheSetsBeforeItAndRefusesTheLast() throws {
        var sets = genuine(5)
        sets[4] = badlySigned(sets[4])
        let outcome = try relay(sets)
        #expect(outcome.stored == 4)
        #expect(try library.priv.signedSetTops(zone: zone)[writer.peerID]?.seq == 4)
        #expect(try tagNames() == Set((1...4).map { "tag \($0)" }))
        #expect(outcome.notes.contains { $0.level == .warning && $0.text.contains("refused a signed set") })
    }

    /// Sets chained by their hashes, none signed by their author: the chain proves nothing.
    @Test func aForgedRunChainedByItsHashesIsRefusedWhole() throws {
        var forged: [SignedChangeSet] = []
        for set in genuine(4) {
            forged.append(badlySigned(set, prevHash: forged.last?.hash ?? SignedSetHeader.noPrevious))
        }
        let outcome = try relay(forged)
        #expect(outcome.stored == 0)
        #expect(try library.priv.signedSetTops(zone: zone)[writer.peerID] == nil)
        #expect(try tagNames().isEmpty)
    }

    /// A forged set spliced into a genuine run breaks the chain after it: the genuine sets
    /// before it are taken, it and everything behind it are not.
    @Test func aForgedSetInsideARunStopsTheAuthorThere() throws {
        var sets = genuine(6)
        sets[2] = badlySigned(sets[2])
        let outcome = try relay(sets)
        #expect(outcome.stored == 2)
        #expect(try tagNames() == ["tag 1", "tag 2"])
    }

    /// Sets whose changes the store holds already (its clock covers them, as a joiner's
    /// does once the owner's delta arrived) are kept for relaying, and change nothing.
    @Test func setsWhoseChangesAreHeldAlreadyAreKeptAndChangeNothing() throws {
        let sets = genuine(3)
        for set in sets {
            _ = try library.priv.apply(try ChangeSetCodec.decode(set.body), from: writer.peerID)
        }
        let token = try library.priv.lastHistoryToken()
        let outcome = try relay(sets)
        #expect(outcome.stored == 3)
        #expect(try library.priv.signedSetTops(zone: zone)[writer.peerID]?.seq == 3)
        #expect(try tagNames().count == 3)
        #expect(try library.priv.lastHistoryToken() == token)
    }
}
