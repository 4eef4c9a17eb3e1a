import Foundation
import Glibc

/// A test-owned `$NOTIFY_SOCKET`: a datagram socket that collects what the daemon tells
/// its service manager (READY=1, STATUS=…, RELOADING=1, STOPPING=1, WATCHDOG=1).
public final class NotifyListener: @unchecked Sendable {
    /// The value to pass as `$NOTIFY_SOCKET` (a path, or `@name` for an abstract socket).
    public let address: String
    private let fd: Int32
    private var received: [String] = []
    private var cursor = 0

    /// Binds at `path`, or at an abstract name when `abstract` is true.
    public init(path: String, abstract: Bool = false) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if abstract { bytes.insert(0, at: 0) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw HarnessError("cannot bind notify socket \(path): \(errno)") }
        self.fd = fd
        self.address = abstract ? "@" + path : path
    }

    deinit { close(fd) }

    /// Every message received so far, in order.
    public var messages: [String] {
        drain(timeoutMilliseconds: 0)
        return received
    }

    /// Waits for the next message (after those already returned by `next`) that contains
    /// the line `line`, and returns it.
    @discardableResult
    public func next(containing line: String, timeout: Duration = .seconds(20)) throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            while cursor < received.count {
                let message = received[cursor]
                cursor += 1
                if message.split(separator: "\n").contains(where: { $0 == line }) { return message }
            }
            guard ContinuousClock.now < deadline else {
                throw HarnessError("no \(line) on NOTIFY_SOCKET within \(timeout); got \(received)")
            }
            drain(timeoutMilliseconds: 50)
        }
    }

    private func drain(timeoutMilliseconds: Int32) {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, timeoutMilliseconds) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes {
                recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            guard count > 0 else { return }
            received.append(String(decoding: buffer[0..<count], as: UTF8.self))
        }
    }
}
