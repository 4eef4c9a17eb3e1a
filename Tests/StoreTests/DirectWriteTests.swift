import Foundation
import Support
import TestSupport
import Testing

@testable import Store

/// Large photo data arriving from a peer goes past the page cache (`DirectWriter`): it must
/// arrive whole whatever the chunk sizes, resume with every byte received, and fall back to
/// ordinary writes where the filesystem refuses direct ones.
@Suite struct DirectWriteTests {
    let directory: TestDirectory
    /// 9 MiB and an odd tail: above `PartialBlob.directBytes`, not a multiple of a block.
    let data = (0..<(9 << 20) + 1_234).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 7) }
    var hash: String { SHA256Hasher.hex(SHA256Hasher.digest(data)) }

    init() throws { directory = try TestDirectory() }

    /// Appends `data[range]` in pieces of `piece` bytes.
    func append(_ blob: PartialBlob, _ range: Range<Int>, piece: Int) throws {
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(start + piece, range.upperBound)
            try data[start..<end].withUnsafeBytes { try blob.append($0) }
            start = end
        }
    }

    @Test func aLargePhotoIsWrittenPastThePageCacheAndArrivesWhole() throws {
        let blobs = try BlobStore(root: directory.file("blobs"))
        let blob = try PartialBlob(store: blobs, hash: hash, expectedSize: Int64(data.count))
        try append(blob, 0..<(1 << 20), piece: 300_007)
        #expect(blob.writesPastThePageCache, "this test directory's filesystem (ext4 on CI) takes O_DIRECT")
        try append(blob, (1 << 20)..<data.count, piece: 300_007)
        #expect(try blob.commit() == .stored)
        #expect(FileManager.default.contents(atPath: blobs.path(for: hash)) == Data(data))
    }

    @Test func aSmallPhotoIsWrittenThroughThePageCache() throws {
        let blobs = try BlobStore(root: directory.file("blobs"))
        let small = Array(data[0..<100_000])
        let blob = try PartialBlob(
            store: blobs, hash: SHA256Hasher.hex(SHA256Hasher.digest(small)), expectedSize: Int64(small.count)
        )
        try blob.append(small)
        #expect(!blob.writesPastThePageCache)
    }

    @Test func aLargePhotoInterruptedResumesWithEveryByteReceived() throws {
        let blobs = try BlobStore(root: directory.file("blobs"))
        let cut = (3 << 20) + 5
        let first = try PartialBlob(store: blobs, hash: hash, expectedSize: Int64(data.count))
        try append(first, 0..<cut, piece: 65_536)
        first.close()
        let second = try PartialBlob(store: blobs, hash: hash, expectedSize: Int64(data.count))
        #expect(second.size == Int64(cut), "the bytes the direct writer held were written at close")
        try append(second, cut..<data.count, piece: 1 << 20)
        #expect(try second.commit() == .stored)
        #expect(FileManager.default.contents(atPath: blobs.path(for: hash)) == Data(data))
    }

    @Test func wrongLargeDataIsDiscarded() throws {
        let blobs = try BlobStore(root: directory.file("blobs"))
        let blob = try PartialBlob(store: blobs, hash: hash, expectedSize: Int64(data.count))
        try blob.append([UInt8](repeating: 9, count: data.count))
        #expect(try blob.commit() == .mismatch)
        #expect(!blobs.contains(hash))
        #expect(!FileManager.default.fileExists(atPath: blob.path))
    }

    @Test func onTmpfsALargePhotoArrivesWholeEitherWay() throws {
        // tmpfs refuses O_DIRECT on older kernels and takes it on newer ones: both must work.
        guard FileManager.default.fileExists(atPath: "/dev/shm") else { return }
        let root = "/dev/shm/peershare-direct-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let blobs = try BlobStore(root: root)
        let blob = try PartialBlob(store: blobs, hash: hash, expectedSize: Int64(data.count))
        try append(blob, 0..<data.count, piece: 1 << 20)
        #expect(try blob.commit() == .stored)
        #expect(FileManager.default.contents(atPath: blobs.path(for: hash)) == Data(data))
    }
}
