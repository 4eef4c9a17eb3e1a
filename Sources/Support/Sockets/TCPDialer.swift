import Glibc

/// Opens outgoing TCP connections with a deadline.
///
/// A plain blocking `connect` can hang for minutes against a host that drops packets; the
/// dialer connects non-blocking and waits with `poll`, trying each resolved address in turn.
public enum TCPDialer {
    /// Connects to `host:port`, giving up after `timeout` in total. Blocks the calling
    /// thread: call it from an `IOThread`, not from the concurrency pool.
    public static func connect(host: String, port: UInt16, timeout: Duration) throws(SocketError) -> TCPSocket
    {
        let display = SocketAddress.display(host: host, port: port)
        let deadline = ContinuousClock.now + timeout
        var lastError = SocketError.cannotConnect(address: display, reason: "no usable address")
        for candidate in try SocketAddress.resolve(host: host, port: port, passive: false) {
            switch attempt(family: candidate.family, address: candidate.address, deadline: deadline) {
            case .success(let fd):
                return TCPSocket(adopting: fd)
            case .failure(.timedOut):
                throw .connectTimedOut(address: display, after: timeout)
            case .failure(.refused(let reason)):
                lastError = .cannotConnect(address: display, reason: reason)
            }
        }
        throw lastError
    }

    private enum Failure: Error {
        case timedOut
        case refused(String)
    }

    private static func attempt(
        family: Int32, address: [UInt8], deadline: ContinuousClock.Instant
    ) -> Result<Int32, Failure> {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .failure(.refused(String(cString: strerror(errno)))) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        let started = address.withUnsafeBytes { raw in
            Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        if started != 0 && errno != EINPROGRESS {
            let reason = String(cString: strerror(errno))
            close(fd)
            return .failure(.refused(reason))
        }
        if started != 0 {
            if Poll.wait(fd: fd, events: Int32(POLLOUT), until: deadline) == .timedOut {
                close(fd)
                return .failure(.timedOut)
            }
            var pending: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &length)
            if pending != 0 {
                close(fd)
                return .failure(.refused(String(cString: strerror(pending))))
            }
        }
        _ = fcntl(fd, F_SETFL, flags)
        return .success(fd)
    }
}
