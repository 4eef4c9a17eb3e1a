import Glibc

/// An IPv4 UDP socket for LAN broadcasts: bound to a port on every interface, shared with
/// other sockets of the same port (SO_REUSEADDR, so that several daemons of one machine
/// each hear a broadcast), allowed to send to broadcast addresses.
///
/// Why: local discovery is one datagram out and one in, with no connection; TCPSocket's
/// stream calls do not fit it. Non-blocking and close-on-exec; `receive` waits with `Poll`.
public final class UDPSocket: @unchecked Sendable {
    public let fd: Int32
    /// The bound port (the one asked for, or the one the kernel picked for 0).
    public let port: UInt16

    /// Binds 0.0.0.0:`port`.
    public init(port: UInt16) throws(SocketError) {
        let address = "0.0.0.0:\(port)"
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw .cannotListen(address: address, reason: Self.reason()) }
        var on: Int32 = 1
        let length = socklen_t(MemoryLayout<Int32>.size)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, length) == 0,
            setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &on, length) == 0
        else {
            let reason = Self.reason()
            close(fd)
            throw .cannotListen(address: address, reason: reason)
        }
        var bound = Self.socketAddress(UInt32(INADDR_ANY), port: port)
        let status = withUnsafePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0, let local = SocketAddress.endpoint(of: fd, peer: false) else {
            let reason = Self.reason()
            close(fd)
            throw .cannotListen(address: address, reason: reason)
        }
        self.fd = fd
        self.port = local.port
    }

    deinit { close(fd) }

    /// Sends `bytes` to the numeric IPv4 address `host` at `port`; false when it could not
    /// be sent (no route, no such network: nothing to do but try again later).
    @discardableResult
    public func send(_ bytes: [UInt8], to host: String, port: UInt16) -> Bool {
        var target = in_addr()
        guard inet_pton(AF_INET, host, &target) == 1 else { return false }
        var address = Self.socketAddress(target.s_addr, port: port, networkOrder: true)
        let sent = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(
                    fd, bytes, bytes.count, Int32(MSG_NOSIGNAL), $0, socklen_t(MemoryLayout<sockaddr_in>.size)
                )
            }
        }
        return sent == bytes.count
    }

    /// One datagram of at most `maximumBytes` (a longer one is cut, and `truncated` says
    /// so), with the numeric address it came from; nil when none is waiting.
    public func receive(maximumBytes: Int) -> (bytes: [UInt8], host: String, truncated: Bool)? {
        var buffer = [UInt8](repeating: 0, count: maximumBytes + 1)
        var source = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = withUnsafeMutablePointer(to: &source) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                recvfrom(fd, &buffer, buffer.count, Int32(MSG_TRUNC), $0, &length)
            }
        }
        guard count >= 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &source.sin_addr, &text, socklen_t(text.count)) != nil else { return nil }
        let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (Array(buffer.prefix(min(count, maximumBytes))), host, count > maximumBytes)
    }

    private static func socketAddress(_ address: UInt32, port: UInt16, networkOrder: Bool = false)
        -> sockaddr_in
    {
        var result = sockaddr_in()
        result.sin_family = sa_family_t(AF_INET)
        result.sin_port = port.bigEndian
        result.sin_addr = in_addr(s_addr: networkOrder ? address : address.bigEndian)
        return result
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
