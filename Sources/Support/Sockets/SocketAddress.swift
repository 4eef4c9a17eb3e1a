import Glibc

/// Name resolution and address formatting shared by the listener and the dialer.
enum SocketAddress {
    /// "host:port", with IPv6 literals in brackets, as users type addresses.
    static func display(host: String, port: UInt16) -> String {
        PeerAddress(host: host, port: port).description
    }

    /// Resolves `host` to stream socket addresses; `passive` asks for addresses to bind.
    static func resolve(
        host: String, port: UInt16, passive: Bool
    ) throws(SocketError) -> [(family: Int32, address: [UInt8])] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw .cannotResolve(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var results: [(family: Int32, address: [UInt8])] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = list
        while let entry = cursor {
            let raw = UnsafeRawBufferPointer(
                start: entry.pointee.ai_addr, count: Int(entry.pointee.ai_addrlen))
            results.append((entry.pointee.ai_family, Array(raw)))
            cursor = entry.pointee.ai_next
        }
        return results
    }

    /// The numeric host and port of a socket's local (`peer == false`) or remote end.
    static func endpoint(of fd: Int32, peer: Bool) -> (host: String, port: UInt16)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                peer ? getpeername(fd, address, &length) : getsockname(fd, address, &length)
            }
        }
        guard status == 0 else { return nil }
        return withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                numeric(address, length: length)
            }
        }
    }

    private static func numeric(_ address: UnsafePointer<sockaddr>, length: socklen_t) -> (String, UInt16)? {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let status = getnameinfo(
            address, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
            NI_NUMERICHOST | NI_NUMERICSERV)
        guard status == 0 else { return nil }
        let hostText = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let serviceText = String(
            decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (hostText, UInt16(serviceText) ?? 0)
    }
}
