import Foundation
import Glibc
import TestSupport
import Testing

@testable import Store

/// Photo data on disk: content-addressed, streamed, and never half-written.
@Suite struct BlobStoreTests {
    final class Fixture {
        let dir: TestDirectory
        let blobs: BlobStore

        init() throws {
            dir = try TestDirectory()
            blobs = try BlobStore(root: dir.path + "/blobs")
        }

        /// Blob files, without the temp directory's content.
        var storedFiles: [String] { files(under: blobs.root).filter { !$0.hasPrefix("tmp/") } }
        var tempFiles: [String] { files(under: blobs.root + "/tmp") }

        func read(_ path: String) throws -> [UInt8] {
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        }
    }

    @Test func theHashIsTheSHA256OfTheContent() throws {
        let f = try Fixture()
        let abc = try f.blobs.store(Array("abc".utf8))
        #expect(abc.hash == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(abc.size == 3)
        let empty = try f.blobs.store([])
        #expect(empty.hash == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(empty.size == 0)
        #expect(f.blobs.contains(abc.hash) && f.blobs.contains(empty.hash))
        #expect(f.blobs.path(for: abc.hash) == f.blobs.root + "/ba/" + abc.hash)
    }

    @Test func aFewMegabytesImportAndExportByteForByte() throws {
        let f = try Fixture()
        let bytes = pseudoRandomBytes(count: 3 * (1 << 20) + 12_345, seed: 42)
        let source = try f.dir.write("big.raw", bytes: bytes)
        let imported = try f.blobs.importFile(at: source, limit: 1 << 30)
        #expect(imported.size == Int64(bytes.count))
        #expect(imported.hash == sha256Hex(bytes))
        #expect(try f.read(f.blobs.path(for: imported.hash)) == bytes)

        let destination = f.dir.path + "/exported.raw"
        try f.blobs.export(imported.hash, to: destination)
        #expect(try f.read(destination) == bytes)
        #expect(!FileManager.default.fileExists(atPath: destination + ".peershare-partial"))
        #expect(f.tempFiles.isEmpty)
    }

    @Test func exportReplacesAnExistingFileWhole() throws {
        let f = try Fixture()
        let blob = try f.blobs.store(Array("new".utf8))
        let destination = try f.dir.write("photo.jpg", bytes: pseudoRandomBytes(count: 10_000, seed: 1))
        try f.blobs.export(blob.hash, to: destination)
        #expect(try f.read(destination) == Array("new".utf8))
    }

    @Test func identicalContentIsStoredOnce() throws {
        let f = try Fixture()
        let bytes = pseudoRandomBytes(count: 5_000, seed: 3)
        let first = try f.blobs.importFile(at: try f.dir.write("a.jpg", bytes: bytes), limit: 1 << 20)
        let second = try f.blobs.importFile(at: try f.dir.write("b.jpg", bytes: bytes), limit: 1 << 20)
        let third = try f.blobs.store(bytes)
        #expect(first.hash == second.hash && second.hash == third.hash)
        #expect(f.storedFiles == [String(first.hash.prefix(2)) + "/" + first.hash])
        #expect(f.tempFiles.isEmpty)
    }

    @Test func exportingIntoAMissingDirectoryFailsAndLeavesNothing() throws {
        let f = try Fixture()
        let blob = try f.blobs.store(Array("pixels".utf8))
        let missing = f.dir.path + "/no-such-dir"
        let error = try #require(throws: StoreError.self) {
            try f.blobs.export(blob.hash, to: missing + "/out.jpg")
        }
        #expect(error.code == "io_error")
        #expect(error.description.contains(missing + "/out.jpg"))
        #expect(error.description.hasSuffix("failed: No such file or directory"))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func exportingOntoADirectoryFailsAndLeavesNoPartialFile() throws {
        let f = try Fixture()
        let blob = try f.blobs.store(pseudoRandomBytes(count: 100_000, seed: 9))
        let target = f.dir.path + "/a-directory"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        #expect(
            throws: StoreError.io(operation: "renaming to", path: target, reason: "Is a directory")
        ) {
            try f.blobs.export(blob.hash, to: target)
        }
        #expect(!FileManager.default.fileExists(atPath: target + ".peershare-partial"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }

    @Test func exportingAMissingBlobFailsWithoutCreatingTheDestination() throws {
        let f = try Fixture()
        let hash = sha256Hex(Array("never stored".utf8))
        let destination = f.dir.path + "/out.jpg"
        #expect(
            throws: StoreError.io(
                operation: "reading photo data", path: f.blobs.path(for: hash),
                reason: "No such file or directory")
        ) {
            try f.blobs.export(hash, to: destination)
        }
        #expect(!FileManager.default.fileExists(atPath: destination))
        #expect(!FileManager.default.fileExists(atPath: destination + ".peershare-partial"))
    }

    @Test func aFileOverTheLimitIsRefusedBeforeAnyByteIsStored() throws {
        let f = try Fixture()
        let source = try f.dir.write("big.jpg", bytes: pseudoRandomBytes(count: 2_001, seed: 5))
        #expect(throws: StoreError.photoTooLarge(size: 2_001, limit: 2_000)) {
            try f.blobs.importFile(at: source, limit: 2_000)
        }
        #expect(f.storedFiles.isEmpty)
        #expect(f.tempFiles.isEmpty)
    }

    @Test func aDeviceOrPipeIsRefusedBeforeReadingAByte() throws {
        // /dev/zero would stream forever; a named pipe would block the open.
        let f = try Fixture()
        #expect(throws: StoreError.unreadableFile(path: "/dev/zero", reason: "it is not a regular file")) {
            try f.blobs.importFile(at: "/dev/zero", limit: 1_000)
        }
        let fifo = f.dir.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: StoreError.unreadableFile(path: fifo, reason: "it is not a regular file")) {
            try f.blobs.importFile(at: fifo, limit: 1_000)
        }
        #expect(f.storedFiles.isEmpty)
        #expect(f.tempFiles.isEmpty)
    }

    @Test func aFileAtTheLimitIsAccepted() throws {
        let f = try Fixture()
        let bytes = pseudoRandomBytes(count: 2_000, seed: 6)
        let imported = try f.blobs.importFile(at: try f.dir.write("ok.jpg", bytes: bytes), limit: 2_000)
        #expect(imported.size == 2_000)
        #expect(imported.hash == sha256Hex(bytes))
    }

    @Test func unreadableSourcesAreRefusedWithTheReason() throws {
        let f = try Fixture()
        let missing = f.dir.path + "/missing.jpg"
        let notFound = try #require(throws: StoreError.self) {
            try f.blobs.importFile(at: missing, limit: 100)
        }
        #expect(notFound == .unreadableFile(path: missing, reason: "No such file or directory"))
        #expect(notFound.description == "cannot read \(missing): No such file or directory")
        let directory = try #require(throws: StoreError.self) {
            try f.blobs.importFile(at: f.dir.path, limit: 100)
        }
        #expect(directory.description == "cannot read \(f.dir.path): it is a directory")
        #expect(f.tempFiles.isEmpty)
    }

    @Test func removingABlobDeletesItsFile() throws {
        let f = try Fixture()
        let blob = try f.blobs.store(Array("gone".utf8))
        f.blobs.remove(blob.hash)
        #expect(!f.blobs.contains(blob.hash))
        #expect(f.storedFiles.isEmpty)
    }
}
