import Foundation
import Glibc
import Synchronization
import TestSupport

/// Two network namespaces joined by a veth pair, made by the test (root only): `a` has
/// 10.213.0.1/24 and `b` 10.213.0.2/24, with their broadcast addresses, so that daemons run
/// in them (`launcher`) see one LAN of their own. Deleted when released.
final class LANNamespaces: @unchecked Sendable {
    let a: String
    let b: String
    /// The veth ends, in `a` and in `b`.
    let endA: String
    let endB: String
    private static let counter = Mutex(0)

    /// Whether this machine lets the tests make namespaces (root, `ip`, a kernel that
    /// allows it): tried once, with a namespace made and deleted.
    static let available: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: ip) else { return false }
        let probe = "ps-probe-\(getpid())"
        guard (try? run(["netns", "add", probe])) != nil else { return false }
        try? run(["netns", "del", probe])
        return true
    }()

    init() throws {
        let n = Self.counter.withLock {
            $0 += 1
            return $0
        }
        let tag = "\(getpid() % 100_000)-\(n)"
        a = "psA-\(tag)"
        b = "psB-\(tag)"
        try Self.run(["netns", "add", a])
        try Self.run(["netns", "add", b])
        endA = String("va\(tag)".prefix(15))
        endB = String("vb\(tag)".prefix(15))
        let ends = (endA, endB)
        try Self.run([
            "link", "add", String(ends.0), "netns", a, "type", "veth", "peer", "name", String(ends.1),
            "netns", b,
        ])
        for (namespace, end, address) in [
            (a, String(ends.0), "10.213.0.1/24"), (b, String(ends.1), "10.213.0.2/24"),
        ] {
            try Self.run(["-n", namespace, "link", "set", "lo", "up"])
            try Self.run(["-n", namespace, "addr", "add", address, "broadcast", "+", "dev", end])
            try Self.run(["-n", namespace, "link", "set", end, "up"])
        }
    }

    deinit {
        try? Self.run(["netns", "del", a])
        try? Self.run(["netns", "del", b])
    }

    /// Gives the end in `a` one more address (`10.213.0.N/24`), as a laptop that joins
    /// another network gains one.
    func addAddressInA(_ address: String) throws {
        try Self.run(["-n", a, "addr", "add", address, "dev", endA])
    }

    /// The command that runs a daemon in `namespace`.
    func launcher(_ namespace: String) -> [String] { [Self.ip, "netns", "exec", namespace] }

    private static let ip = "/usr/sbin/ip"

    /// Runs `ip ARGS`; throws with its output when it fails.
    static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ip)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw HarnessError("ip \(arguments.joined(separator: " ")) failed: \(text)")
        }
    }
}
