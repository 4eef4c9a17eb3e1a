import ControlProtocol
import Foundation
import Glibc
import Store
import TestSupport
import Testing

/// The library across the daemon's life: a SIGTERM loses nothing (not even the request in
/// flight), the stores close cleanly, and a restart finds everything as it was.
@Suite(.onOwnThreads) struct LibraryLifecycleTests {
    @Test func sigtermKeepsEveryCommittedChangeAndTheStoresCloseCleanly() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        for index in 0..<3 {
            let photo = try daemon.addPhoto(
                try directory.write("\(index).jpg", bytes: randomBytes(20_000)), "--tag", "t\(index % 2)",
                "--thumbnail", try directory.write("\(index).thumb", bytes: randomBytes(300)))
            _ = try daemon.json("rate", photo, "\(index + 2)")
        }
        _ = try daemon.json("tag", "delete", "t1")
        let before = try daemon.snapshot()
        #expect(before["history"]?.arrayValue?.count == 7)

        try daemon.stop()
        try daemon.notify.next(containing: "STOPPING=1")
        // Closed connections checkpoint and remove their write-ahead logs.
        for store in ["private", "shared"] {
            let path = daemon.libraryDirectory + "/\(store).sqlite"
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "\(store) was not closed")
            let database = try Database(path: path)
            #expect(try database.integrityCheck() == "ok")
        }

        let again = try daemon.restart(label: "again")
        #expect(try again.snapshot() == before)
        for photo in before["photos"]?.arrayValue ?? [] {
            let sha = try #require(photo["sha256"]?.stringValue)
            #expect(FileManager.default.fileExists(atPath: again.blobPath(sha)))
        }
    }

    @Test func aPhotoAddInFlightFinishesWhenTheDaemonIsStopped() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let file = directory.file("big.jpg")
        let bytes = try writeLargeFile(file, megabytes: 64)
        let client = try RawControlClient(path: daemon.socketPath)
        try client.send(#"{"id": 1, "command": "photo.add", "args": {"file": "\#(file)", "progress": true}}"#)
        // The first progress line is sent once the handler runs: the add is in flight.
        let first = try client.readJSON()
        #expect(first["event"]?["data"] == ["bytes": 0, "total": .int(bytes.count)])
        daemon.send(SIGTERM)
        var response = try client.readJSON()
        while response["event"] != nil { response = try client.readJSON() }
        #expect(response["ok"] == true)
        let id = try #require(response["result"]?["id"]?.stringValue)
        #expect(try daemon.waitForExit() == 0)

        let again = try daemon.restart(label: "again")
        let photo = try again.json("photo", "show", id)
        #expect(photo["size"] == .int(bytes.count))
        #expect(photo["sha256"] == .string(sha256Hex(bytes)))
        #expect(photo["pending"] == false)
    }

    @Test func dataNoPhotoRefersToIsRemovedAtStartButPartialTransfersOfWantedDataStay() throws {
        let directory = try TestDirectory()
        let first = try DaemonProcess.startReady(in: directory)
        let kept = try first.addPhoto(try directory.write("a.jpg", bytes: randomBytes(100)))
        let gone = try first.addPhoto(try directory.write("b.jpg", bytes: randomBytes(200)))
        let goneHash = try #require(try first.json("photo", "show", gone)["sha256"]?.stringValue)
        let keptHash = try #require(try first.json("photo", "show", kept)["sha256"]?.stringValue)
        _ = try first.json("photo", "delete", gone)
        try first.stop()
        // What a crash can leave: a half-written import, the data of a photo whose delete was
        // interrupted before its clean-up, a partial transfer of data nobody wants any more —
        // and a partial transfer of wanted data, which must stay for the transfer to resume.
        let blobs = first.blobDirectory()
        try Data(randomBytes(500)).write(to: URL(fileURLWithPath: blobs + "/tmp/blob-Ab12Cd"))
        try FileManager.default.createDirectory(
            atPath: blobs + "/" + goneHash.prefix(2), withIntermediateDirectories: true)
        try Data(randomBytes(200)).write(
            to: URL(fileURLWithPath: blobs + "/\(goneHash.prefix(2))/\(goneHash)"))
        try Data(randomBytes(10)).write(to: URL(fileURLWithPath: blobs + "/tmp/\(goneHash).partial"))
        try Data(randomBytes(10)).write(to: URL(fileURLWithPath: blobs + "/tmp/\(keptHash).partial"))
        let second = try first.restart(label: "second")
        try second.waitForLog(
            "<6>removed photo data and temporary files that no photo refers to data=1 temporary=2")
        #expect(entries(of: blobs + "/tmp") == ["\(keptHash).partial"])
        #expect(!FileManager.default.fileExists(atPath: blobs + "/\(goneHash.prefix(2))/\(goneHash)"))
        #expect(try second.json("photo", "show", kept)["pending"] == false)
    }

    /// Writes `megabytes` distinct 1 MiB chunks to `path`, and returns the bytes.
    private func writeLargeFile(_ path: String, megabytes: Int) throws -> [UInt8] {
        let chunk = randomBytes(1 << 20)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(megabytes << 20)
        for index in 0..<megabytes {
            var copy = chunk
            copy[0] = UInt8(index & 0xFF)
            bytes += copy
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return bytes
    }
}
