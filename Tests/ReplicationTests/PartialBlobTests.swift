import Foundation
import Store
import Testing

@testable import Replication

@Suite struct PartialBlobTests {
    let directory: TemporaryDirectory
    let blobs: BlobStore
    let data = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    var hash: String { SHA256Hasher.hex(SHA256Hasher.digest(data)) }

    init() throws {
        directory = try TemporaryDirectory()
        blobs = try BlobStore(root: directory.child("blobs"))
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
}
