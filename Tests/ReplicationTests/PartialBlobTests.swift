import Foundation
import Store
import Support
import TestSupport
import Testing

@testable import Replication

@Suite struct PartialBlobTests {
    let directory: TestDirectory
    let blobs: BlobStore
    let data = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    var hash: String { SHA256Hasher.hex(SHA256Hasher.digest(data)) }

    init() throws {
        directory = try TestDirectory()
        blobs = try BlobStore(root: directory.file("blobs"))
    }

    @Test func anInterruptedWriteResumesFromThePartialFileAndVerifies() throws {
        let first = try PartialBlob(store: blobs, hash: hash, expectedSize: Int64(data.count))
        try first.append(Array(data[0..<4_000]))
        first.close()
        let second = try PartialBlob(store: blobs, hash: hash, expectedSize: Int64(data.count))
        #expect(second.size == 4_000)
        try second.append(Array(data[4_000...]))
        #expect(!blobs.contains(hash), "invisible until committed")
        #expect(try second.commit() == .stored)
        #expect(blobs.contains(hash))
        #expect(FileManager.default.contents(atPath: blobs.path(for: hash)) == Data(data))
        #expect(!FileManager.default.fileExists(atPath: second.path))
    }

    @Test func wrongBytesAreDiscardedNotStored() throws {
        let partial = try PartialBlob(store: blobs, hash: hash, expectedSize: Int64(data.count))
        try partial.append([UInt8](repeating: 0, count: data.count))
        #expect(try partial.commit() == .mismatch)
        #expect(!blobs.contains(hash))
        #expect(!FileManager.default.fileExists(atPath: partial.path))
    }

    @Test func bytesBeyondTheAnnouncedSizeAreRefused() throws {
        let partial = try PartialBlob(store: blobs, hash: hash, expectedSize: 10)
        #expect(throws: StoreError.self) { try partial.append([UInt8](repeating: 1, count: 11)) }
        #expect(partial.size == 0)
    }

    @Test func aPartialFileLongerThanTheDataStartsOver() throws {
        let path = blobs.root + "/tmp/\(hash).partial"
        FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: data.count + 1))
        let partial = try PartialBlob(store: blobs, hash: hash, expectedSize: Int64(data.count))
        #expect(partial.size == 0)
        try partial.append(data)
        #expect(try partial.commit() == .stored)
    }

    @Test func aNameThatIsNotADigestIsRefused() {
        #expect(throws: StoreError.self) {
            try PartialBlob(store: blobs, hash: "../../etc/passwd", expectedSize: 1)
        }
    }

    @Test func verifiedDataIsPublishedInOneGroupAndOnlyThen() throws {
        let photos = (0..<5).map { n in (0..<3_000).map { UInt8(truncatingIfNeeded: $0 &* (n + 3)) } }
        var partials: [PartialBlob] = []
        for photo in photos {
            let digest = SHA256Hasher.hex(SHA256Hasher.digest(photo))
            let partial = try PartialBlob(store: blobs, hash: digest, expectedSize: Int64(photo.count))
            try partial.append(photo)
            #expect(try partial.verify())
            #expect(!blobs.contains(digest), "invisible until published")
            partials.append(partial)
        }
        #expect(BlobStore.publish(partials).allSatisfy { $0 == nil })
        for (photo, partial) in zip(photos, partials) {
            #expect(FileManager.default.contents(atPath: blobs.path(for: partial.hash)) == Data(photo))
            #expect(!FileManager.default.fileExists(atPath: partial.path))
        }
    }

    @Test func theCommitterPublishesEverySubmissionAndCallsBackOnce() throws {
        let committer = DataCommitter()
        let outcomes = Guarded<[String: Int]>([:])
        var hashes: [String] = []
        for n in 0..<20 {
            let photo = [UInt8](repeating: UInt8(n), count: 1_000 + n)
            let digest = SHA256Hasher.hex(SHA256Hasher.digest(photo))
            let partial = try PartialBlob(store: blobs, hash: digest, expectedSize: Int64(photo.count))
            try partial.append(photo)
            #expect(try partial.verify())
            hashes.append(digest)
            committer.submit(partial) { failure in
                #expect(failure == nil)
                outcomes.withLock { $0[digest, default: 0] += 1 }
            }
        }
        committer.waitUntilIdle()
        #expect(outcomes.withLock { $0 } == Dictionary(uniqueKeysWithValues: hashes.map { ($0, 1) }))
        #expect(hashes.allSatisfy { blobs.contains($0) })
    }
}
