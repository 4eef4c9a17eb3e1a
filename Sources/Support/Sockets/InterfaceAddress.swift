import Glibc

/// One IP address of a network interface, as `getifaddrs` reports it: the input of the
/// advertised-address rules, kept plain so tests can give any list.
public struct InterfaceAddress: Sendable, Equatable {
    public enum Family: Sendable, Equatable {
        case ipv4, ipv6
    }

    /// The interface's name, such as `eth0`.
    public let interface: String
    public let family: Family
    /// The address in numeric form (`192.0.2.7`, `2001:db8::7`), without a zone.
    public let address: String
    /// The interface is up (IFF_UP).
    public let isUp: Bool
    /// The interface is a loopback one (IFF_LOOPBACK).
    public let isLoopback: Bool
    /// The IPv4 broadcast address of the interface's network (IFF_BROADCAST), if it has one.
    public var broadcast: String? = nil

    public init(
        interface: String, family: Family, address: String, isUp: Bool, isLoopback: Bool,
        broadcast: String? = nil
    ) {
        self.interface = interface
        self.family = family
        self.address = address
        self.isUp = isUp
        self.isLoopback = isLoopback
        self.broadcast = broadcast
    }

    /// Every IPv4 and IPv6 address of every interface of this machine, in the kernel's
    /// order; empty when they cannot be listed (`getifaddrs` needs a netlink socket).
    public static func current() -> [InterfaceAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [InterfaceAddress] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            entry = current.pointee.ifa_next
            guard let address = current.pointee.ifa_addr, let text = numeric(address) else { continue }
            let flags = current.pointee.ifa_flags
            found.append(
                InterfaceAddress(
                    interface: String(cString: current.pointee.ifa_name),
                    family: Int32(address.pointee.sa_family) == AF_INET ? .ipv4 : .ipv6, address: text,
                    isUp: flags & UInt32(IFF_UP) != 0,
                    isLoopback: flags & UInt32(IFF_LOOPBACK) != 0,
                    broadcast: flags & UInt32(IFF_BROADCAST) != 0
                        ? current.pointee.ifa_ifu.ifu_broadaddr.flatMap(numeric) : nil))
        }
        return found
    }

    /// An IPv4 or IPv6 socket address as numeric text (zone dropped); nil for others.
    private static func numeric(_ address: UnsafeMutablePointer<sockaddr>) -> String? {
        let family = Int32(address.pointee.sa_family)
        let length: Int
        switch family {
        case AF_INET: length = MemoryLayout<sockaddr_in>.size
        case AF_INET6: length = MemoryLayout<sockaddr_in6>.size
        default: return nil
        }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard
            getnameinfo(address, socklen_t(length), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0
        else { return nil }
        let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(text.prefix { $0 != "%" })
    }
}
