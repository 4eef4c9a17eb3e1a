import ControlProtocol
import Foundation
import Glibc
import Store
import Support

/// What library tests need on top of `DaemonProcess`: files with known bytes, refusals
/// read exactly, a snapshot to prove "nothing changed", stopping and restarting.
extension DaemonProcess {
    /// `STATE_DIR/library`.
    var libraryDirectory: String { stateDirectory + "/library" }

    /// Where a store keeps photo data: `STATE_DIR/library/blobs/private` or `…/shared`.
    func blobDirectory(_ store: StoreKind = .private) -> String {
        libraryDirectory + "/blobs/" + store.rawValue
    }

    /// The file holding the photo data with this hash.
    func blobPath(_ sha256: String, store: StoreKind = .private) -> String {
        blobDirectory(store) + "/\(sha256.prefix(2))/\(sha256)"
    }

    /// Runs a command that must be refused: exit status 1, `{"error": {"code", "message"}}`
    /// on stdout with `--json`, and exactly `peershare: MESSAGE` as the one line of stderr.
    func refusal(_ arguments: String...) throws -> ControlError {
        try refusal(arguments)
    }

    func refusal(_ arguments: [String]) throws -> ControlError {
        let result = try CLI.run(["--json", "--socket", socketPath] + arguments, in: directory)
        guard result.status == 1, let value = JSONLine.decode(Data(result.stdout.utf8)),
            let error = value["error"].flatMap(ControlError.init(json:)), value.objectValue?.count == 1
        else { throw HarnessError("peershare \(arguments) was not refused as expected: \(result)") }
        guard result.stderr == "peershare: \(error.message)\n" else {
            throw HarnessError("stderr is not the one-line message: \(result)")
        }
        return error
    }

    /// Everything a person can see of the library: photos, tags and both histories.
    func snapshot() throws -> JSON {
        [
            "photos": try json("photo", "list"), "tags": try json("tag", "list"),
            "history": try json("history"),
        ]
    }

    /// Adds a photo and returns its ID.
    func addPhoto(_ file: String, _ options: String...) throws -> String {
        let result = try json(["photo", "add", file] + options)
        guard let id = result["id"]?.stringValue else { throw HarnessError("no id in \(result)") }
        return id
    }

    /// `json` with an array of arguments.
    func json(_ arguments: [String]) throws -> JSON {
        let result = try CLI.run(["--json", "--socket", socketPath] + arguments, in: directory)
        guard result.status == 0, let value = JSONLine.decode(Data(result.stdout.utf8)) else {
            throw HarnessError("peershare \(arguments) failed: \(result)")
        }
        return value
    }

    /// SIGTERM, and the exit status must be 0.
    func stop() throws {
        send(SIGTERM)
        let status = try waitForExit()
        guard status == 0 else { throw HarnessError("peershared exited \(status):\n\(stderr)") }
    }

    /// A new daemon on the same state directory, socket and arguments, once ready.
    func restart(label: String) throws -> DaemonProcess {
        let next = try DaemonProcess(
            in: directory, arguments: arguments, stateDirectory: stateDirectory, socketPath: socketPath,
            label: label)
        try next.waitUntilReady()
        return next
    }
}

extension TestDirectory {
    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let target = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Makes a directory `name` and returns its path.
    func makeDirectory(_ name: String) throws -> String {
        let target = file(name)
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        return target
    }
}

/// `count` random bytes: photo data no two tests share.
func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    var bytes = [UInt8](repeating: 0, count: count)
    // Eight bytes per call: fast enough for megabytes in a debug build.
    bytes.withUnsafeMutableBytes { buffer in
        var offset = 0
        while offset < count {
            var word = generator.next()
            let take = min(8, count - offset)
            withUnsafeBytes(of: &word) {
                buffer.baseAddress!.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: take)
            }
            offset += take
        }
    }
    return bytes
}

/// The lowercase hex SHA-256 the store names photo data by.
func sha256(_ bytes: [UInt8]) -> String {
    SHA256Hasher.hex(SHA256Hasher.digest(bytes))
}

/// The names in a directory (empty when it does not exist).
func entries(of directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

extension JSON {
    /// The element at `index` of an array, or nil.
    subscript(index: Int) -> JSON? {
        guard let items = arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }
}

/// The regular files under a directory, as paths relative to it, sorted.
func files(under directory: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
    var found: [String] = []
    while let path = walker.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            found.append(path)
        }
    }
    return found.sorted()
}
