import Glibc

/// A connected TCP socket that owns its file descriptor and closes it exactly once.
///
/// Exists so that a descriptor handed from the listener or the dialer to the TLS layer has
/// one owner: whoever holds the last reference, with no double close and no leak on error
/// paths.
public final class TCPSocket: @unchecked Sendable {
    /// The descriptor; valid for the life of this object.
    public let fileDescriptor: Int32
    /// The remote end as "host:port", for logs.
    public let remoteAddress: String

    /// Takes ownership of a connected descriptor. Sets close-on-exec and disables Nagle's
    /// algorithm: replication sends small frames that must leave at once.
    public init(adopting fd: Int32) {
        fileDescriptor = fd
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if let remote = SocketAddress.endpoint(of: fd, peer: true) {
            remoteAddress = SocketAddress.display(host: remote.host, port: remote.port)
        } else {
            remoteAddress = "unknown address"
        }
    }

    deinit {
        close(fileDescriptor)
    }

    /// Ends both directions so that any thread blocked on this socket wakes up; the
    /// descriptor itself stays open until the object is released, so it cannot be reused
    /// under that thread's feet.
    public func shutdown() {
        _ = Glibc.shutdown(fileDescriptor, Int32(SHUT_RDWR))
    }

    /// Switches the descriptor to non-blocking mode (the TLS layer waits with `poll`).
    public func setNonBlocking() throws(SocketError) {
        let flags = fcntl(fileDescriptor, F_GETFL)
        guard flags >= 0, fcntl(fileDescriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw .systemCallFailed(operation: "fcntl(O_NONBLOCK)", reason: String(cString: strerror(errno)))
        }
    }
}
