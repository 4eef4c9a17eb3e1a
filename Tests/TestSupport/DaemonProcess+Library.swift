import ControlProtocol
import Foundation
import Glibc
import Store

/// What library tests need on top of `DaemonProcess`: files with known bytes, refusals
/// read exactly, a snapshot to prove "nothing changed", stopping and restarting.
extension DaemonProcess {
    /// `STATE_DIR/library`.
    public var libraryDirectory: String { stateDirectory + "/library" }

    /// Where a store keeps photo data: `STATE_DIR/library/blobs/private` or `…/shared`.
    public func blobDirectory(_ store: StoreKind = .private) -> String {
        libraryDirectory + "/blobs/" + store.rawValue
    }

    /// The file holding the photo data with this hash.
    public func blobPath(_ sha256: String, store: StoreKind = .private) -> String {
        blobDirectory(store) + "/\(sha256.prefix(2))/\(sha256)"
    }

    /// Runs a command that must be refused: exit status 1, `{"error": {"code", "message"}}`
    /// on stdout with `--json`, and exactly `peershare: MESSAGE` as the one line of stderr.
    public func refusal(_ arguments: String...) throws -> ControlError {
        try refusal(arguments)
    }

    public func refusal(_ arguments: [String]) throws -> ControlError {
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
    public func snapshot() throws -> JSON {
        [
            "photos": try json("photo", "list"), "tags": try json("tag", "list"),
            "history": try json("history"),
        ]
    }

    /// Adds a photo and returns its ID.
    public func addPhoto(_ file: String, _ options: String...) throws -> String {
        let result = try json(["photo", "add", file] + options)
        guard let id = result["id"]?.stringValue else { throw HarnessError("no id in \(result)") }
        return id
    }

    /// `json` with an array of arguments.
    public func json(_ arguments: [String]) throws -> JSON {
        let result = try CLI.run(["--json", "--socket", socketPath] + arguments, in: directory)
        guard result.status == 0, let value = JSONLine.decode(Data(result.stdout.utf8)) else {
            throw HarnessError("peershare \(arguments) failed: \(result)")
        }
        return value
    }

    /// SIGTERM, and the exit status must be 0.
    public func stop() throws {
        send(SIGTERM)
        let status = try waitForExit()
        guard status == 0 else { throw HarnessError("peershared exited \(status):\n\(stderr)") }
    }

    /// A new daemon on the same state directory, socket and arguments, once ready.
    public func restart(label: String) throws -> DaemonProcess {
        let next = try DaemonProcess(
            in: directory, arguments: arguments, stateDirectory: stateDirectory, socketPath: socketPath,
            label: label, launcher: launcher)
        try next.waitUntilReady()
        return next
    }
}
