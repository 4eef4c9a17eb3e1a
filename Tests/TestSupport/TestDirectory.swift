import Foundation
import Glibc

/// A fresh directory under /tmp for one test, removed when the test drops it (or calls
/// `remove()`).
///
/// Every test of every target keeps its files here, never in a shared place: tests run in
/// parallel in one process. The path is short on purpose: a Unix socket path must fit in
/// 107 bytes, and daemon tests keep their control sockets here.
public final class TestDirectory: @unchecked Sendable {
    public let path: String

    public init() throws {
        var template = Array("/tmp/psd-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed: \(errno)") }
        path = String(cString: made)
    }

    deinit { remove() }

    /// Removes the directory and everything in it now; later calls do nothing. A test that
    /// calls it in a `defer` also keeps the directory alive until then.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `contents` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ contents: String) throws -> String {
        let target = file(name)
        try contents.write(toFile: target, atomically: true, encoding: .utf8)
        return target
    }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) throws -> String {
        let target = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Makes a directory `name` (and its parents) and returns its path.
    @discardableResult
    public func makeDirectory(_ name: String) throws -> String {
        let target = file(name)
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        return target
    }

    /// The text of `name`, or "" when it does not exist.
    public func read(_ name: String) -> String {
        (try? String(contentsOfFile: file(name), encoding: .utf8)) ?? ""
    }
}
