import Foundation
import Glibc

/// A fresh directory under /tmp for one test, removed when the test drops it.
///
/// Short on purpose: a Unix socket path must fit in 107 bytes, and each test keeps its
/// state directory, sockets and logs here, never in a shared place.
final class TestDirectory: @unchecked Sendable {
    let path: String

    init() throws {
        var template = Array("/tmp/psd-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed: \(errno)") }
        path = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `contents` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ contents: String) throws -> String {
        let target = file(name)
        try contents.write(toFile: target, atomically: true, encoding: .utf8)
        return target
    }

    /// The text of `name`, or "" when it does not exist.
    func read(_ name: String) -> String {
        (try? String(contentsOfFile: file(name), encoding: .utf8)) ?? ""
    }
}

/// A harness failure, with whatever context (daemon stderr, output) explains it.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Waits for `condition`, checking every 10 ms, up to `timeout`; no fixed sleeps.
func waitUntil(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(20), _ condition: () throws -> Bool
) throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else {
            throw HarnessError("timed out after \(timeout) waiting for \(what())")
        }
        usleep(10_000)
    }
}
