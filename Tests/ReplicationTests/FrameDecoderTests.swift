import TestSupport
import Testing

@testable import Replication

@Suite struct FrameDecoderTests {
    @Test func frameBytesAreLengthThenTypeThenPayload() throws {
        let frame = Frame(type: MessageType(rawValue: 0x2A), payload: [0xAA, 0xBB])
        #expect(try frame.encoded() == [0, 0, 0, 3, 0x2A, 0xAA, 0xBB])
        #expect(try Frame(type: .hello, payload: []).encoded() == [0, 0, 0, 1, 0x01])
    }

    @Test func framesFedInRandomChunksAreReassembledExactly() throws {
        let seed = SeededRandom.chooseSeed()
        var random = SeededRandom(seed: seed)
        for round in 0..<20 {
            let frames = (0..<Int.random(in: 1...30, using: &random)).map { _ in
                // Small, medium, and large enough to be assembled in their own array.
                let size =
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: Int.random(in: 0...16, using: &random)
                    case 1: Int.random(in: 0...10_000, using: &random)
                    default: Int.random(in: (64 << 10)...(300 << 10), using: &random)
                    }
                return Frame(
                    type: MessageType(rawValue: UInt8.random(in: 0...255, using: &random)),
                    payload: random.bytes(size))
            }
            var stream: [UInt8] = []
            for frame in frames { try frame.encode(into: &stream) }
            var decoder = FrameDecoder()
            var decoded: [Frame] = []
            var position = 0
            while position < stream.count {
                let largest = Bool.random(using: &random) ? 4_096 : 400_000
                let size = min(stream.count - position, Int.random(in: 1...largest, using: &random))
                // As a slice, or as an array of its own (what the connection's reader hands over).
                if Bool.random(using: &random) {
                    decoder.feed(stream[position..<(position + size)])
                } else {
                    decoder.feed(Array(stream[position..<(position + size)]))
                }
                position += size
                while case .frame(let frame) = try decoder.next() { decoded.append(frame) }
            }
            #expect(decoded == frames, "seed \(seed) (PEERSHARE_TEST_SEED to replay), round \(round)")
            #expect(decoder.bufferedByteCount == 0, "seed \(seed), round \(round)")
            #expect(throws: Never.self, "seed \(seed), round \(round)") { try decoder.finish() }
        }
    }

    @Test func everyTruncationOfAValidStreamAsksForMoreData() throws {
        var stream: [UInt8] = []
        try Frame(type: .hello, payload: Array(0..<40)).encode(into: &stream)
        try Frame(type: MessageType(rawValue: 9), payload: []).encode(into: &stream)
        for cut in 0..<stream.count {
            var decoder = FrameDecoder()
            decoder.feed(stream[0..<cut])
            var frames = 0
            while case .frame = try decoder.next() { frames += 1 }
            #expect(frames == (cut >= 45 ? 1 : 0), "cut at \(cut)")
            let endsBetweenFrames = cut == 0 || cut == 45
            let finishedCleanly = (try? decoder.finish()) != nil
            #expect(finishedCleanly == endsBetweenFrames, "cut at \(cut)")
        }
    }

    @Test func randomGarbageGivesATypedErrorOrNeedMoreData() {
        let seed = SeededRandom.chooseSeed()
        var random = SeededRandom(seed: seed)
        for round in 0..<2_000 {
            var decoder = FrameDecoder(maximumFrameSize: 1 << Int.random(in: 0...20, using: &random))
            decoder.feed(random.bytes(Int.random(in: 0...600, using: &random)))
            do {
                while case .frame(let frame) = try decoder.next() {
                    #expect(frame.bodyLength <= decoder.maximumFrameSize, "seed \(seed), round \(round)")
                }
            } catch {
                // Typed: only WireError can arrive here; the point is that nothing traps.
                #expect(decoder.bufferedByteCount == 0, "seed \(seed), round \(round): \(error)")
            }
        }
    }

    @Test func anOversizedLengthIsRefusedFromTheHeaderAlone() {
        var decoder = FrameDecoder()
        decoder.feed([0xFF, 0xFF, 0xFF, 0xFF])
        #expect(
            throws: WireError.frameTooLarge(length: 0xFFFF_FFFF, maximum: WireLimits.defaultMaximumFrameSize)
        ) {
            try decoder.next()
        }
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func theLimitIsInclusive() throws {
        let fits = Frame(type: .hello, payload: [UInt8](repeating: 1, count: 9))
        var decoder = FrameDecoder(maximumFrameSize: 10)
        decoder.feed(try fits.encoded(maximumFrameSize: 10))
        #expect(try decoder.next() == .frame(fits))
        let tooBig = Frame(type: .hello, payload: [UInt8](repeating: 1, count: 10))
        #expect(throws: WireError.frameTooLarge(length: 11, maximum: 10)) {
            try tooBig.encoded(maximumFrameSize: 10)
        }
        decoder.feed([0, 0, 0, 11])
        #expect(throws: WireError.frameTooLarge(length: 11, maximum: 10)) { try decoder.next() }
    }

    @Test func anEmptyBodyIsRefused() {
        var decoder = FrameDecoder()
        decoder.feed([0, 0, 0, 0, 1])
        #expect(throws: WireError.emptyFrame) { try decoder.next() }
    }

    @Test func aFailedDecoderStaysFailed() throws {
        var decoder = FrameDecoder(maximumFrameSize: 8)
        decoder.feed([0, 0, 1, 0])
        #expect(throws: WireError.self) { try decoder.next() }
        decoder.feed(try Frame(type: .hello, payload: []).encoded())
        #expect(throws: WireError.frameTooLarge(length: 256, maximum: 8)) { try decoder.next() }
        #expect(throws: WireError.frameTooLarge(length: 256, maximum: 8)) { try decoder.finish() }
    }

    @Test func endingMidFrameIsReported() throws {
        var decoder = FrameDecoder()
        decoder.feed(try Frame(type: .hello, payload: [1, 2, 3]).encoded().dropLast())
        #expect(try decoder.next() == .needMoreData)
        #expect(throws: WireError.endedMidFrame(bufferedBytes: 7)) { try decoder.finish() }
    }
}
