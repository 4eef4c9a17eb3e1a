import Store
import TestSupport
import Testing

@testable import Replication

@Suite struct BinaryCodingTests {
    private let peer = PeerID(digest: (0..<32).map { UInt8($0) })!

    @Test func everyFieldKindRoundTripsInBigEndian() throws {
        var writer = BinaryWriter()
        writer.write(UInt8(0xAB))
        writer.write(UInt16(0x0102))
        writer.write(UInt32(0x0304_0506))
        writer.write(UInt64(0x0708_090A_0B0C_0D0E))
        writer.write(Int64(-2))
        writer.write(true)
        writer.writeFixed([9, 9])
        writer.write(peer)
        writer.writeLengthPrefixed([1, 2, 3])
        writer.write("héllo")
        #expect(Array(writer.bytes[0..<15]) == [0xAB, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14])

        var reader = BinaryReader(writer.bytes)
        #expect(try reader.readUInt8("a") == 0xAB)
        #expect(try reader.readUInt16("b") == 0x0102)
        #expect(try reader.readUInt32("c") == 0x0304_0506)
        #expect(try reader.readUInt64("d") == 0x0708_090A_0B0C_0D0E)
        #expect(try reader.readInt64("e") == -2)
        #expect(try reader.readBool("f") == true)
        #expect(try reader.readFixed(2, "g") == [9, 9])
        #expect(try reader.readPeerID("h") == peer)
        #expect(try reader.readLengthPrefixed("i", maximum: 3) == [1, 2, 3])
        #expect(try reader.readString("j", maximumBytes: 100) == "héllo")
        #expect(reader.isAtEnd)
        try reader.expectEnd(of: "test")
    }

    @Test func readingPastTheEndNamesTheField() {
        var reader = BinaryReader([0, 1, 2])
        #expect(throws: WireError.truncated(field: "zone id", needed: 4, remaining: 3)) {
            try reader.readUInt32("zone id")
        }
        #expect(reader.offset == 0)
    }

    @Test func aLengthPrefixIsCheckedBeforeAnythingIsCopied() {
        var lying = BinaryReader([0xFF, 0xFF, 0xFF, 0xF0, 1, 2])
        #expect(throws: WireError.fieldTooLarge(field: "name", length: 0xFFFF_FFF0, maximum: 64)) {
            try lying.readString("name", maximumBytes: 64)
        }
        var short = BinaryReader([0, 0, 0, 5, 1, 2])
        #expect(throws: WireError.truncated(field: "blob", needed: 5, remaining: 2)) {
            try short.readLengthPrefixed("blob", maximum: 100)
        }
        var noLength = BinaryReader([0, 0, 5])
        #expect(throws: WireError.truncated(field: "name length", needed: 4, remaining: 3)) {
            try noLength.readString("name", maximumBytes: 64)
        }
        #expect(noLength.offset == 0)
    }

    @Test func invalidValuesAreRefused() {
        var bool = BinaryReader([2])
        #expect(throws: WireError.invalidValue(field: "flag", reason: "2 is not a boolean (0 or 1)")) {
            try bool.readBool("flag")
        }
        var text = BinaryReader([0, 0, 0, 2, 0xC3, 0x28])
        #expect(throws: WireError.invalidValue(field: "title", reason: "not valid UTF-8")) {
            try text.readString("title", maximumBytes: 10)
        }
        let trailing = BinaryReader([1])
        #expect(throws: WireError.trailingBytes(message: "rating", count: 1)) {
            try trailing.expectEnd(of: "rating")
        }
    }

    @Test func randomBytesNeverTrapTheReader() {
        let seed = SeededRandom.chooseSeed()
        var random = SeededRandom(seed: seed)
        for _ in 0..<2_000 {
            var reader = BinaryReader(random.bytes(Int.random(in: 0...64, using: &random)))
            do {
                while true {
                    switch UInt8.random(in: 0...5, using: &random) {
                    case 0: _ = try reader.readUInt64("u64")
                    case 1: _ = try reader.readBool("bool")
                    case 2: _ = try reader.readString("string", maximumBytes: 32)
                    case 3: _ = try reader.readLengthPrefixed("bytes", maximum: 1 << 30)
                    case 4: _ = try reader.readPeerID("peer")
                    default: _ = try reader.readUInt16("u16")
                    }
                }
            } catch {
                #expect(reader.remaining >= 0, "seed \(seed): \(error)")
            }
        }
    }
}
