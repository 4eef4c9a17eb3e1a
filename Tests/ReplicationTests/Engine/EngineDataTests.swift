import Foundation
import Store
import Synchronization
import TestSupport
import Testing

@testable import Replication

@Suite struct EngineDataTests {
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        return random.bytes(count)
    }

    @Test func photoDataOfAFewMegabytesArrivesAndVerifies() async throws {
        let owner = try EnginePeer("owner")
        let participant = try EnginePeer("participant")
        let data = Self.bytes(5 << 20, seed: 1)
        let photo = try owner.addPhoto("big.raw", bytes: data)
        let (zone, _) = try shareZone(owner: owner, with: [participant], photo: photo)
        #expect(await eventually { try participant.shared.photo(photo)?.pending == false })
        let hash = try #require(try participant.shared.photo(photo)).sha256
        #expect(FileManager.default.contents(atPath: participant.shared.blobs.path(for: hash)) == Data(data))
        #expect(
            participant.events.all.contains(
                .dataFetched(owner.peer, hash: ContentHash(hex: hash)!, size: Int64(data.count))))

        // And the other way: a participant's photo reaches the owner.
        let file = participant.directory.file("mine.raw")
        let mine = Self.bytes(3 << 20, seed: 2)
        FileManager.default.createFile(atPath: file, contents: Data(mine))
        let theirs = try participant.library.addPhoto(file: file, share: zone)
        #expect(await eventually { try owner.priv.photo(theirs)?.pending == false })
        #expect(await participant.engine.waitUntilInSync(timeout: .seconds(30)))
    }

    @Test func photoDataReachesTheOtherParticipantThroughTheOwner() async throws {
        let owner = try EnginePeer("owner")
        let first = try EnginePeer("first")
        let second = try EnginePeer("second")
        let (zone, _) = try shareZone(owner: owner, with: [first, second])
        let file = first.directory.file("relay.raw")
        FileManager.default.createFile(atPath: file, contents: Data(Self.bytes(2 << 20, seed: 3)))
        let photo = try first.library.addPhoto(file: file, share: zone)
        #expect(await eventually { try owner.priv.photo(photo)?.pending == false })
        #expect(await eventually { try second.shared.photo(photo)?.pending == false })
        for peer in [owner, first, second] {
            #expect(await peer.engine.waitUntilInSync(timeout: .seconds(30)))
        }
    }

    @Test func dataIsServedOnlyForPhotosInZonesTheRequesterIsAMemberOf() async throws {
        let owner = try EnginePeer("owner")
        let member = try RawPeer()
        let shared = try owner.addPhoto("shared.jpg", bytes: Array("shared bytes".utf8))
        let secret = try owner.addPhoto("secret.jpg", bytes: Array("secret bytes".utf8))
        let zone = try owner.priv.createShare(photo: shared, title: "t", publicPermission: .none)
        try owner.priv.setParticipant(zone: zone, peer: member.peer, permission: .readOnly, status: .accepted)
        owner.engine.refreshMembership()
        let sharedHash = ContentHash(hex: try #require(try owner.priv.photo(shared)).sha256)!
        let secretHash = ContentHash(hex: try #require(try owner.priv.photo(secret)).sha256)!

        let answers = try await member.converse(with: owner) { stream -> [PeerMessage] in
            try stream.send([
                DataRequest(hash: secretHash, offset: 0, length: 100).frame(),
                DataRequest(hash: sharedHash, offset: 0, length: 100).frame(),
            ])
            var answers: [PeerMessage] = []
            while answers.count < 2, let frame = try stream.receive() {
                let message = try PeerMessage(frame: frame)
                switch message {
                case .dataChunk, .dataError: answers.append(message)
                default: break
                }
            }
            return answers
        }
        guard answers.count == 2, case .dataError(let refusal) = answers[0],
            case .dataChunk(let chunk) = answers[1]
        else {
            Issue.record("unexpected answers \(answers)")
            return
        }
        #expect(refusal.reason == .unknown)
        #expect(Array(chunk.bytes) == Array("shared bytes".utf8) && chunk.isFinal)
    }
}
