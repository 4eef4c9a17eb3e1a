import ControlProtocol
import Glibc
import Support

/// Speaks systemd's notify protocol (READY=1, STATUS=…, WATCHDOG=1, RELOADING=1,
/// STOPPING=1) as one datagram per message to `$NOTIFY_SOCKET`.
///
/// Written directly rather than via libsystemd, which is not a dependency here. A path
/// starting with `@` names an abstract socket. Without `$NOTIFY_SOCKET` it does nothing.
final class SystemdNotifier: Sendable {
    private let path: String?
    private let logger: Logger

    init(environment: [String: String], logger: Logger) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        self.path = path
        self.logger = logger
    }

    /// Whether a service manager listens.
    var isEnabled: Bool { path != nil }

    /// Sends `assignments` (such as `READY=1`, `STATUS=ready`) as one message.
    func notify(_ assignments: String...) {
        guard let path else { return }
        let message = assignments.joined(separator: "\n")
        do {
            try send(Array(message.utf8), to: path)
        } catch {
            logger.warning("cannot notify the service manager: \(error)")
        }
    }

    /// `MONOTONIC_USEC=…` for RELOADING=1, as systemd 253+ expects.
    static func monotonicMicroseconds() -> String {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return "MONOTONIC_USEC=\(Int(now.tv_sec) * 1_000_000 + Int(now.tv_nsec) / 1000)"
    }

    private func send(_ bytes: [UInt8], to path: String) throws(SystemCallError) {
        var pathBytes = Array(path.utf8)
        let abstract = pathBytes.first == UInt8(ascii: "@")
        if abstract { pathBytes[0] = 0 }
        guard pathBytes.count <= UnixSocket.maxPathBytes else {
            throw SystemCallError("sendto", path, code: ENAMETOOLONG)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        // An abstract name's length is exact (no trailing NUL); a path's includes its NUL.
        let pathLength = abstract ? pathBytes.count : pathBytes.count + 1
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathLength)
        let fd = try UnixSocket.makeSocket(SOCK_DGRAM, for: path)
        defer { close(fd) }
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bytes.withUnsafeBytes {
                    sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
        guard sent == bytes.count else { throw SystemCallError("sendto", path) }
    }
}
