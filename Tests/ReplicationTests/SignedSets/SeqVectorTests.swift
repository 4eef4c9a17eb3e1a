import Store
import Testing

@testable import Replication

/// Seq vectors: what one peer lacks of another's sets, and a strict encoding.
@Suite struct SeqVectorTests {
    let a = PeerID(digest: [UInt8](repeating: 1, count: 32))!
    let b = PeerID(digest: [UInt8](repeating: 2, count: 32))!
    let c = PeerID(digest: [UInt8](repeating: 3, count: 32))!

    @Test func missingListsWhatTheOtherLacksPerAuthor() {
        let cases: [(mine: [PeerID: UInt64], theirs: [PeerID: UInt64], missing: [SeqRange])] = [
            ([:], [:], []),
            ([a: 3], [:], [SeqRange(author: a, seqs: 1...3)]),
            ([a: 3], [a: 3], []),
            ([a: 3], [a: 5], []),
            (
                [a: 3, b: 2, c: 7], [a: 1, c: 7],
                [SeqRange(author: a, seqs: 2...3), SeqRange(author: b, seqs: 1...2)]
            ),
            ([a: 0], [:], []),
        ]
        for (mine, theirs, missing) in cases {
            #expect(SeqVector(mine).missing(from: SeqVector(theirs)) == missing, "\(mine) vs \(theirs)")
        }
    }

    @Test func advanceNeverLowers() {
        var vector = SeqVector()
        vector.advance(a, to: 4)
        vector.advance(a, to: 2)
        vector.advance(b, to: 0)
        #expect(vector == SeqVector([a: 4]))
        #expect(vector[b] == 0)
    }

    @Test func theEncodingRoundTripsAndRefusesMalformedVectors() throws {
        let vector = SeqVector([c: 9, a: 1, b: UInt64.max])
        #expect(try SeqVector(decoding: vector.encoded) == vector)
        #expect(try SeqVector(decoding: SeqVector().encoded) == SeqVector())
        let bytes = vector.encoded
        #expect(throws: WireError.trailingBytes(message: "seq vector", count: 1)) {
            try SeqVector(decoding: bytes + [0])
        }
        #expect(throws: WireError.truncated(field: "seq vector seq", needed: 8, remaining: 7)) {
            try SeqVector(decoding: Array(bytes.dropLast()))
        }
        // Authors out of order or repeated, a zero seq, more entries than allowed.
        var unsorted = BinaryWriter()
        unsorted.write(UInt16(2))
        for author in [b, a] {
            unsorted.write(author)
            unsorted.write(UInt64(1))
        }
        #expect(throws: WireError.invalidValue(field: "seq vector", reason: "authors not sorted or repeated"))
        {
            try SeqVector(decoding: unsorted.bytes)
        }
        var zero = BinaryWriter()
        zero.write(UInt16(1))
        zero.write(a)
        zero.write(UInt64(0))
        #expect(
            throws: WireError.invalidValue(
                field: "seq vector seq", reason: "0 (authors without sets are left out)")
        ) {
            try SeqVector(decoding: zero.bytes)
        }
        var huge = BinaryWriter()
        huge.write(UInt16(SeqVector.maximumEntries + 1))
        #expect(throws: WireError.fieldTooLarge(field: "seq vector", length: 4_097, maximum: 4_096)) {
            try SeqVector(decoding: huge.bytes)
        }
    }
}
