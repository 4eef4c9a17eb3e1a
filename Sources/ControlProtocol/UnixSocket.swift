import Glibc
import Support

/// The `AF_UNIX` stream-socket calls both ends of the control socket need.
///
/// Glibc's Swift module exposes `sun_path` as a 108-byte tuple and socket types as enums;
/// this is the one place that deals with that.
public enum UnixSocket {
    /// The longest path `sun_path` holds, leaving room for the terminating NUL.
    public static let maxPathBytes = 107

    /// A `sockaddr_un` for `path`, or nil when the path is too long for one.
    public static func address(_ path: String) -> sockaddr_un? {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maxPathBytes else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        return address
    }

    /// A new close-on-exec socket of `type` (`SOCK_STREAM`, `SOCK_DGRAM`).
    public static func makeSocket(_ type: __socket_type, for path: String) throws(SystemCallError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("socket", "for \(path)") }
        return fd
    }

    /// Connects a new stream socket to `path`. With `sendTimeout`, a connection the
    /// listener does not take in time (its backlog full) fails with EAGAIN, and so do later
    /// sends that cannot go out in time.
    public static func connect(path: String, sendTimeout: Duration? = nil) throws(SystemCallError) -> Int32 {
        guard var address = address(path) else {
            throw SystemCallError("connect", path, code: ENAMETOOLONG)
        }
        let fd = try makeSocket(SOCK_STREAM, for: path)
        if let sendTimeout {
            let (seconds, attoseconds) = sendTimeout.components
            var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                Glibc.connect(fd, socketAddress, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let error = SystemCallError("connect", path)
            close(fd)
            throw error
        }
        return fd
    }
}
