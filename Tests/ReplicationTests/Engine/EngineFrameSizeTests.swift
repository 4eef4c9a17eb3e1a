import Foundation
import Store
import TestSupport
import Testing

@testable import Replication

/// `max_frame_bytes` was read from the config and never applied. Applied, a peer that
/// accepts only small frames must still get everything: each side says in its hello the
/// largest frame it accepts, change sets are cut to fit, and photo data is asked for in
/// chunks that fit.
@Suite struct EngineFrameSizeTests {
    @Test func aPeerAcceptingOnlySmallFramesGetsLargeChangeSetsAndPhotoDataInPieces() async throws {
        let owner = try EnginePeer("owner")
        let small = try EnginePeer("small") { $0.session.maximumFrameSize = 64 * 1024 }
        let (zone, photo) = try shareZone(owner: owner, with: [small])
        #expect(await eventually { try small.shared.photo(photo) != nil })
        // While the small side is away, about 200 KB of tags: anti-entropy then sends them in
        // change sets far larger than one 64 KiB frame unless they are cut to fit.
        small.engine.pause()
        for index in 0..<250 {
            _ = try owner.priv.tag(photo: photo, name: "tag \(index) " + String(repeating: "x", count: 300))
        }
        let data = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let second = try owner.addPhoto("big.jpg", bytes: data)
        try owner.priv.addToShare(photo: second, zone: zone)
        small.engine.resume()

        #expect(await eventually(timeout: .seconds(60)) { try small.shared.photo(photo)?.tags.count == 251 })
        #expect(await eventually(timeout: .seconds(60)) { try small.shared.photo(second)?.pending == false })
        // And the other way: the small side's own large sets are cut to its own limit.
        small.engine.pause()
        for index in 0..<150 {
            _ = try small.shared.tag(
                photo: second, name: "back \(index) " + String(repeating: "y", count: 300))
        }
        small.engine.resume()
        #expect(await eventually(timeout: .seconds(60)) { try owner.priv.photo(second)?.tags.count == 150 })
        #expect(!small.logs.all.contains { $0.contains("too large") || $0.contains("exceeds") })
        #expect(try owner.priv.canonicalDump(zone: zone) == small.shared.canonicalDump(zone: zone))
    }
}
