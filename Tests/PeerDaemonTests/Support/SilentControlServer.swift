import ControlProtocol
import Foundation
import Glibc
import Synchronization
import TestSupport

/// A Unix socket the test owns that takes connections and never answers, standing in for
/// a daemon that hangs: what the CLI must give up on with a clear message.
///
/// With `accepting: false` it does not even take them: its backlog (one connection, which
/// the initializer fills itself) is full, so the next `connect` blocks.
final class SilentControlServer: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private let held = Mutex<[Int32]>([])
    private let done = Mutex(false)

    init(path: String, accepting: Bool = true) throws {
        self.path = path
        fd = try UnixSocket.makeSocket(SOCK_STREAM, for: path)
        guard var address = UnixSocket.address(path) else { throw HarnessError("path too long: \(path)") }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, 0) == 0 else { throw HarnessError("cannot listen on \(path): \(errno)") }
        if accepting {
            let thread = Thread { [self] in acceptForEver() }
            thread.start()
        } else {
            // One pending connection fills a backlog of 0.
            held.withLock { $0.append(try! UnixSocket.connect(path: path)) }
        }
    }

    deinit {
        done.withLock { $0 = true }
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        for client in held.withLock({ $0 }) { close(client) }
    }

    private func acceptForEver() {
        while !done.withLock({ $0 }) {
            let client = accept(fd, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            // Kept open and never read or written: the client waits for an answer.
            held.withLock { $0.append(client) }
        }
    }
}
