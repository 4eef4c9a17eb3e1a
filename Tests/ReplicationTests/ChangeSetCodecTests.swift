import Foundation
import Store
import Testing

@testable import Replication

@Suite struct ChangeSetCodecTests {
    static func peer(_ n: UInt8) -> PeerID { PeerID(digest: [UInt8](repeating: n, count: 32))! }

    /// A set with every kind of value, several authors and both clocks.
    static let sample: ChangeSet = {
        let a = peer(1)
        let b = peer(2)
        return ChangeSet(
            zone: "0b7a3f5e-0000-4000-8000-000000000001",
            since: VectorClock([a: 10]), until: VectorClock([a: 42, b: 7]),
            objects: [
                ObjectChange(
                    entity: .photo, id: "p1",
                    fields: [
                        FieldChange(
                            field: PhotoField.name, value: .text("Plage 🏖"), stamp: Stamp(hlc: 40, peer: a)),
                        FieldChange(
                            field: PhotoField.dataSize, value: .integer(-5), stamp: Stamp(hlc: 41, peer: b)),
                        FieldChange(
                            field: PhotoField.thumbnail, value: .blob([0, 1, 255]),
                            stamp: Stamp(hlc: 42, peer: a)),
                        FieldChange(field: PhotoField.dataHash, value: .null, stamp: Stamp(hlc: 1, peer: b)),
                        FieldChange(field: 9, value: .real(2.5), stamp: Stamp(hlc: .max, peer: a)),
                        FieldChange(
                            field: PhotoField.uniqueName, value: .blob([]), stamp: Stamp(hlc: 0, peer: b)),
                    ]),
                ObjectChange(entity: .link, id: "p1/t1", fields: []),
            ])
    }()

    @Test func aChangeSetRoundTrips() throws {
        let bytes = ChangeSetCodec.encode(Self.sample)
        #expect(try ChangeSetCodec.decode(bytes) == Self.sample)
    }

    @Test func anEmptySetRoundTrips() throws {
        let empty = ChangeSet(zone: "z", since: VectorClock(), until: VectorClock(), objects: [])
        #expect(try ChangeSetCodec.decode(ChangeSetCodec.encode(empty)) == empty)
    }

    @Test func everyTruncationIsATypedError() {
        let bytes = ChangeSetCodec.encode(Self.sample)
        for length in 0..<bytes.count {
            #expect(throws: WireError.self, "prefix of \(length) bytes") {
                try ChangeSetCodec.decode(Array(bytes.prefix(length)))
            }
        }
    }

    @Test func trailingBytesAreRefused() {
        let bytes = ChangeSetCodec.encode(Self.sample) + [0]
        #expect(throws: WireError.trailingBytes(message: "change set", count: 1)) {
            try ChangeSetCodec.decode(bytes)
        }
    }

    @Test func anUnknownVersionIsRefusedWithItsNumber() {
        var bytes = ChangeSetCodec.encode(Self.sample)
        bytes[0] = 9
        #expect(
            throws: WireError.invalidValue(
                field: "change set version", reason: "9 is not supported (this peer reads 1)")
        ) { try ChangeSetCodec.decode(bytes) }
    }

    @Test func aLyingObjectCountIsRefusedBeforeAllocating() {
        var writer = BinaryWriter()
        writer.write(ChangeSetCodec.version)
        writer.write("z")
        writer.write(UInt16(0))
        writer.write(UInt16(0))
        writer.write(UInt16(0))
        writer.write(UInt32.max)
        #expect(throws: WireError.self) { try ChangeSetCodec.decode(writer.bytes) }
    }

    /// Random garbage and random corruptions of a valid set: a typed error or a valid set,
    /// never a crash. The seed is printed on failure.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func garbageNeverCrashes(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let valid = ChangeSetCodec.encode(Self.sample)
        for round in 0..<2_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0..<300, using: &rng)).map { _ in
                    UInt8.random(in: 0...255, using: &rng)
                }
                if Bool.random(using: &rng) && !bytes.isEmpty { bytes[0] = ChangeSetCodec.version }
            } else {
                bytes = valid
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(
                        in: 0...255, using: &rng)
                }
            }
            do {
                let decoded = try ChangeSetCodec.decode(bytes)
                // Whatever decodes must encode back to a set that decodes the same.
                #expect(
                    try ChangeSetCodec.decode(ChangeSetCodec.encode(decoded)) == decoded,
                    "seed \(seed) round \(round)")
            } catch {
                #expect(!error.description.isEmpty, "seed \(seed) round \(round)")
            }
        }
    }
}
