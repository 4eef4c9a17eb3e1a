import Store
import Support
import Testing

@testable import Replication

/// Signed change sets: what the author signs comes back whole, and every forged, altered,
/// misplaced or malformed set is refused with its own error.
@Suite struct SignedChangeSetTests {
    let keys = PublicKeyCache()
    var author: PeerIdentity { SignedSetFixtures.devices[0] }
    var other: PeerIdentity { SignedSetFixtures.devices[1] }
    let zone = "zone-a"
    let limit = 1 << 20

    func certificate(_ device: PeerID) -> [UInt8]? { SignedSetFixtures.certificate(of: device) }

    /// Decodes `bytes` and checks the set for `zone`: the receiver's whole path.
    func receive(_ bytes: [UInt8], zone: String? = nil, limit: Int? = nil) throws(SignedSetError)
        -> SignedChangeSet
    {
        let set = try SignedChangeSet(decoding: bytes, maximumBodyBytes: limit ?? self.limit)
        try set.verify(
            zone: zone ?? self.zone, keys: keys, certificates: certificate)
        return set
    }

    @Test func aSignedSetAndItsHeaderAloneRoundTrip() throws {
        let chain = SignedSetFixtures.chain(of: author, in: zone, count: 2)
        for set in chain {
            let received = try receive(set.encoded)
            #expect(received == set)
            #expect(received.hash == SHA256Hasher.digest(set.header.encoded))
            // The header without its body still decodes and verifies, with the same hash.
            let header = try SignedSetHeader(decoding: set.header.encoded)
            #expect(header == set.header)
            try header.verify(zone: zone, keys: keys, certificates: certificate)
        }
        #expect(chain[0].header.prevHash == SignedSetHeader.noPrevious)
        #expect(chain[1].header.prevHash == chain[0].hash)
        #expect(chain[1].header.author == author.peerID && chain[1].header.seq == 2)
        // An empty body is a body too.
        let empty = SignedChangeSet.sign(
            zone: zone, seq: 1, prevHash: SignedSetHeader.noPrevious, body: [], by: author)
        #expect(try receive(empty.encoded) == empty)
    }

    @Test func anAlteredBodyIsRefusedAsNotTheSignedOne() throws {
        let set = SignedSetFixtures.chain(of: author, in: zone, count: 1)[0]
        var bytes = set.encoded
        bytes[bytes.count - 1] ^= 1
        #expect(throws: SignedSetError.bodyHashMismatch(author: author.peerID, seq: 1)) { try receive(bytes) }
    }

    @Test func everyAlteredHeaderFieldBreaksTheSignature() throws {
        let set = SignedSetFixtures.chain(of: author, in: zone, count: 2)[1]
        let header = set.header
        func forged(
            zone: String? = nil, seq: UInt64? = nil, prevHash: [UInt8]? = nil, bodyHash: [UInt8]? = nil,
            bodyLength: Int? = nil
        ) -> SignedSetHeader {
            SignedSetHeader(
                zone: zone ?? header.zone, author: header.author, seq: seq ?? header.seq,
                prevHash: prevHash ?? header.prevHash, bodyHash: bodyHash ?? header.bodyHash,
                bodyLength: bodyLength ?? header.bodyLength, signature: header.signature)
        }
        var otherHash = header.prevHash
        otherHash[0] ^= 1
        let alterations = [
            forged(seq: 3), forged(prevHash: otherHash), forged(bodyHash: otherHash),
            forged(bodyLength: header.bodyLength + 1),
        ]
        for altered in alterations {
            #expect(throws: SignedSetError.badSignature(author: author.peerID, seq: altered.seq)) {
                try altered.verify(zone: zone, keys: keys, certificates: certificate)
            }
        }
        // A changed zone: refused as another zone's set, and, relabelled for this zone, as forged.
        let moved = forged(zone: "zone-b")
        #expect(throws: SignedSetError.badSignature(author: author.peerID, seq: 2)) {
            try moved.verify(zone: "zone-b", keys: keys, certificates: certificate)
        }
    }

    @Test func aSetSignedByAnotherDeviceUnderTheAuthorsNameIsRefused() throws {
        let own = SignedChangeSet.sign(
            zone: zone, seq: 1, prevHash: SignedSetHeader.noPrevious, body: [1], by: other)
        let claimed = SignedChangeSet(
            header: SignedSetHeader(
                zone: zone, author: author.peerID, seq: 1, prevHash: own.header.prevHash,
                bodyHash: own.header.bodyHash, bodyLength: 1, signature: own.header.signature),
            body: [1])
        #expect(throws: SignedSetError.badSignature(author: author.peerID, seq: 1)) {
            try receive(claimed.encoded)
        }
        // And with no certificate for the claimed author at all.
        let stranger = SignedSetHeader(
            zone: zone, author: PeerID(digest: [UInt8](repeating: 7, count: 32))!, seq: 1,
            prevHash: own.header.prevHash, bodyHash: own.header.bodyHash, bodyLength: 1,
            signature: own.header.signature)
        #expect(throws: SignedSetError.unknownAuthor(stranger.author)) {
            try receive(SignedChangeSet(header: stranger, body: [1]).encoded)
        }
    }

    @Test func aSetReplayedIntoAnotherZoneIsRefused() throws {
        let set = SignedSetFixtures.chain(of: author, in: zone, count: 1)[0]
        #expect(throws: SignedSetError.wrongZone(expected: "zone-b", found: zone)) {
            try receive(set.encoded, zone: "zone-b")
        }
    }

    @Test func truncatedTrailingNewerOrOversizedBytesAreRefusedWithTheirErrors() throws {
        let set = SignedChangeSet.sign(
            zone: zone, seq: 1, prevHash: SignedSetHeader.noPrevious, body: Array(repeating: 9, count: 100),
            by: author)
        let bytes = set.encoded
        // Every cut is refused as truncated, never misread.
        for length in 0..<bytes.count {
            #expect(throws: SignedSetError.self) { try receive(Array(bytes.prefix(length))) }
            do {
                _ = try receive(Array(bytes.prefix(length)))
            } catch {
                guard case .truncated = error else {
                    Issue.record("cut at \(length): \(error), expected truncated")
                    continue
                }
            }
        }
        #expect(throws: SignedSetError.truncated(field: "body", needed: 100, remaining: 99)) {
            try receive(Array(bytes.dropLast()))
        }
        #expect(throws: SignedSetError.trailingBytes(count: 1)) { try receive(bytes + [0]) }
        #expect(throws: SignedSetError.trailingBytes(count: 100)) { try SignedSetHeader(decoding: bytes) }
        var newer = bytes
        newer[0] = 2
        #expect(throws: SignedSetError.newerFormat(version: 2, supported: 1)) { try receive(newer) }
        #expect(throws: SignedSetError.bodyTooLarge(length: 100, maximum: 99)) {
            try receive(bytes, limit: 99)
        }
        #expect(try receive(bytes, limit: 100) == set)
    }

    @Test func impossibleChainPlacesAreRefusedWhileDecoding() throws {
        let set = SignedSetFixtures.chain(of: author, in: zone, count: 2)[1]
        // Offsets in the header: version 1, zone 4 + 6, author 32, then seq (8) and prevHash (32).
        let seqAt = 1 + 4 + zone.utf8.count + 32
        var zeroSeq = set.encoded
        for i in seqAt..<(seqAt + 8) { zeroSeq[i] = 0 }
        #expect(throws: SignedSetError.invalidField(field: "seq", reason: "0 (sets count from 1)")) {
            try receive(zeroSeq)
        }
        var noPrevious = set.encoded
        for i in (seqAt + 8)..<(seqAt + 40) { noPrevious[i] = 0 }
        #expect(
            throws: SignedSetError.invalidField(field: "previous hash", reason: "set 2 names no previous set")
        ) {
            try receive(noPrevious)
        }
    }
}
