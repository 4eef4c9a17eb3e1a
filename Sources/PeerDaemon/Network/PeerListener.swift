import ControlProtocol
import Foundation
import Glibc
import Support

/// The TCP socket peers connect to, bound at start-up so `status` can show the real port
/// (`--listen 127.0.0.1:0`) and share URLs can carry it.
///
/// Accepts on a dedicated thread and hands every connection to a `PeerConnectionHandler`;
/// the replication layer plugs its TLS session in there.
final class PeerListener: Sendable {
    /// The address actually bound, with the port the kernel picked for port 0.
    let boundAddress: HostPort
    private let fd: Int32
    private let stopSignal = StopSignal()
    private let done = DispatchGroup()

    init(address: HostPort) throws(DaemonError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &list)
        guard status == 0, let first = list else {
            throw .listen(address: "\(address)", reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var lastError = SystemCallError("bind", "\(address)", code: EADDRNOTAVAIL)
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        var bound: (fd: Int32, address: HostPort)?
        while bound == nil, let info = candidate {
            candidate = info.pointee.ai_next
            do {
                let fd = try Self.bindAndListen(info.pointee)
                bound = (fd, try Self.localAddress(of: fd))
            } catch {
                lastError = error
            }
        }
        guard let bound else { throw .listen(address: "\(address)", reason: lastError.reason) }
        fd = bound.fd
        boundAddress = bound.address
    }

    /// Starts accepting connections for `handler`.
    func start(handler: any PeerConnectionHandler) {
        done.enter()
        let thread = Thread { @Sendable [self] in
            defer { done.leave() }
            while Poll.readable([fd, stopSignal.fd]).contains(0) && !stopSignal.isFired {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { continue }
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                handler.handle(fd: client)
            }
        }
        thread.name = "peer-accept"
        thread.start()
    }

    /// Stops accepting and closes the socket.
    func stop() {
        stopSignal.fire()
        done.wait()
        close(fd)
    }

    private static func bindAndListen(_ info: addrinfo) throws(SystemCallError) -> Int32 {
        let fd = socket(info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.ai_protocol)
        guard fd >= 0 else { throw SystemCallError("socket", "for the peer listener") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, info.ai_addr, info.ai_addrlen) == 0, listen(fd, 128) == 0 else {
            let error = SystemCallError("bind", "the peer listener")
            close(fd)
            throw error
        }
        return fd
    }

    private static func localAddress(of fd: Int32) throws(SystemCallError) -> HostPort {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let status = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                guard getsockname(fd, address, &length) == 0 else { return EAI_SYSTEM }
                return getnameinfo(
                    address, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                    NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard status == 0 else {
            close(fd)
            throw SystemCallError("getsockname", "the peer listener")
        }
        let hostText = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let portText = String(
            decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return HostPort(host: hostText, port: UInt16(portText) ?? 0)
    }
}

/// Takes over an accepted peer connection (and its descriptor).
///
/// The seam between the daemon, which owns the listening socket, and replication, which
/// owns everything spoken on a peer connection.
protocol PeerConnectionHandler: Sendable {
    func handle(fd: Int32)
}

/// Closes peer connections at once, logging why: what the daemon does until replication
/// sessions are wired in.
struct ClosingPeerConnectionHandler: PeerConnectionHandler {
    let logger: Logger

    func handle(fd: Int32) {
        logger.debug("closed an incoming peer connection: replication is not wired into this build yet")
        close(fd)
    }
}
