import ControlProtocol
import Foundation
import TestSupport
import Testing

/// `photo add PATH...`: directories, duplicates, standard input, several files with a bad one,
/// and `photo export PHOTO -`, through the real CLI and daemon.
@Suite(.onOwnThreads) struct PhotoImportTests {
    /// 50 files under `pics/` (some in a subdirectory), 10 of them duplicates: 5 copies of
    /// files in the directory and 5 of photos added before. Returns the directory's path.
    private func fiftyFilesWithTenDuplicates(_ directory: TestDirectory, _ daemon: DaemonProcess) throws
        -> String
    {
        let pics = try directory.makeDirectory("pics")
        _ = try directory.makeDirectory("pics/sub")
        var originals: [[UInt8]] = []
        for index in 0..<40 {
            let bytes = randomBytes(2_000 + index)
            originals.append(bytes)
            _ = try directory.write("pics/\(index < 20 ? "" : "sub/")img\(index).jpg", bytes: bytes)
        }
        for index in 0..<5 { _ = try directory.write("pics/copy\(index).jpg", bytes: originals[index]) }
        for index in 0..<5 {
            let bytes = randomBytes(1_000 + index)
            _ = try daemon.addPhoto(try directory.write("earlier\(index).jpg", bytes: bytes))
            _ = try directory.write("pics/sub/again\(index).jpg", bytes: bytes)
        }
        _ = try directory.write("pics/.hidden.jpg", bytes: randomBytes(10))
        return pics
    }

    @Test func aDirectoryOfFiftyFilesWithTenDuplicatesAddsFortyAndSaysSo() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let pics = try fiftyFilesWithTenDuplicates(directory, daemon)
        let result = try daemon.cli("photo", "add", "-r", pics)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "added 40, skipped 10 (duplicates), failed 0\n")
        #expect(result.stderr == "")
        #expect(try daemon.json("photo", "list").arrayValue?.count == 45)
    }

    @Test func withJSONEachFileIsOneLineAndTheSummaryLast() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let pics = try fiftyFilesWithTenDuplicates(directory, daemon)
        let result = try daemon.cli("--json", "photo", "add", "--recursive", "pics", "pics/img0.jpg")
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").compactMap { JSONLine.decode(Data($0.utf8)) }
        #expect(lines.count == 52)
        #expect(lines.last == ["summary": ["added": 40, "skipped": 11, "failed": 0]])
        let records = lines.dropLast()
        #expect(records.filter { $0["status"] == "added" }.allSatisfy { $0["id"]?.stringValue?.count == 36 })
        #expect(records.filter { $0["reason"] == "duplicate" }.count == 10)
        #expect(records.last == ["file": "pics/img0.jpg", "status": "skipped", "reason": "given_twice"])
        // Sorted: the files directly in pics/ come in byte order, sub/ among them.
        let names = records.compactMap { $0["file"]?.stringValue }
        #expect(names.first == "pics/copy0.jpg")
        #expect(!names.contains { $0.contains(".hidden") })
        _ = pics
    }

    @Test func aDirectoryWithoutRecursiveIsRefusedNamingItAndNothingIsAdded() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        _ = try directory.makeDirectory("pics")
        _ = try directory.write("pics/a.jpg", bytes: randomBytes(100))
        let result = try daemon.cli("photo", "add", "pics")
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "peershare: 'pics' is a directory: add -r (--recursive) to add the photos in it "
                + "(see 'peershare photo add --help')\n")
        #expect(try daemon.json("photo", "list") == [])
    }

    @Test func standardInputBecomesAPhotoWhoseExportToStandardOutputIsTheSameBytes() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let bytes = randomBytes(300_000)
        let input = try directory.write("input.bin", bytes: bytes)
        let cli = try Products.path("peershare")
        let add = try shell(
            "'\(cli)' --socket '\(daemon.socketPath)' photo add - --name x < '\(input)'", directory)
        #expect(add.status == 0, "\(add.stderr)")
        let id = add.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try daemon.json("photo", "show", id)["name"] == "x")
        let out = directory.file("out.bin")
        let export = try shell(
            "'\(cli)' --socket '\(daemon.socketPath)' photo export \(id) - > '\(out)'", directory)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(bytes))
        // No spool file is left beside the socket.
        let spooled = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasPrefix(".peershare-")
        }
        #expect(spooled == [])
    }

    @Test func allowDuplicatesAddsASecondPhotoOfTheSameData() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let file = try directory.write("a.jpg", bytes: randomBytes(5_000))
        let first = try daemon.addPhoto(file)
        let again = try daemon.json("photo", "add", file)
        #expect(again == ["id": .string(first), "skipped": true, "duplicate_of": .string(first)])
        let second = try daemon.addPhoto(file, "--allow-duplicates")
        #expect(second != first)
        #expect(try daemon.json("photo", "list").arrayValue?.count == 2)
    }

    @Test func oneUnreadableFileAmongOthersIsNamedTheOthersAreAddedAndTheExitStatusIsOne() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let good = try (0..<3).map { try directory.write("ok\($0).jpg", bytes: randomBytes(1_000)) }
        let missing = directory.file("missing.jpg")
        let result = try daemon.cli(["photo", "add", good[0], missing, good[1], good[2]])
        #expect(result.status == 1)
        #expect(result.stdout == "added 3, skipped 0, failed 1\n")
        #expect(
            result.stderr
                == "peershare: cannot add \(missing): cannot read \(missing): No such file or directory\n")
        #expect(try daemon.json("photo", "list").arrayValue?.count == 3)
    }

    private func shell(_ command: String, _ directory: TestDirectory) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", command],
            environment: DaemonProcess.baseEnvironment(directory),
            directory: directory, label: "sh-\(UUID().uuidString.prefix(8))")
        let status = try child.waitForExit(timeout: .seconds(60))
        return (status, child.stdout, child.stderr)
    }
}
