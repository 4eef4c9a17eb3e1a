import Glibc
import Support

/// The addresses other peers can dial this daemon at: what share URLs carry and `status`
/// shows.
///
/// The configured `advertise` list comes first. Then, when the daemon listens on one
/// address, that address (unless `advertise` is set); when it listens on a wildcard
/// (`0.0.0.0`, `::`), never the wildcard itself, which means "this machine" to whoever
/// dials it, but the machine's routable interface addresses with the bound port: up,
/// not loopback, not link-local, IPv4 only for `0.0.0.0` (an IPv4 socket), IPv4 first.
/// Pure, so the rules are tested on any list of interfaces.
enum AdvertisedAddresses {
    static func resolve(configured: [PeerAddress], bound: PeerAddress, interfaces: [InterfaceAddress])
        -> [PeerAddress]
    {
        var result = configured
        if let family = wildcardFamily(bound.host) {
            result += routable(interfaces, port: bound.port, ipv6: family == .ipv6)
        } else if configured.isEmpty {
            result.append(bound)
        }
        var seen = Set<PeerAddress>()
        return result.filter { seen.insert($0).inserted }
    }

    /// The addresses of `interfaces` a peer on another machine could reach, with `port`.
    static func routable(_ interfaces: [InterfaceAddress], port: UInt16, ipv6: Bool) -> [PeerAddress] {
        let usable = interfaces.filter { entry in
            entry.isUp && !entry.isLoopback && (ipv6 || entry.family == .ipv4) && isRoutable(entry)
        }
        let ordered = usable.filter { $0.family == .ipv4 } + usable.filter { $0.family == .ipv6 }
        return ordered.map { PeerAddress(host: $0.address, port: port) }
    }

    /// The family of a wildcard host (`0.0.0.0` → IPv4, `::` → both, as an IPv6 socket
    /// takes IPv4 too), or nil for a specific address.
    static func wildcardFamily(_ host: String) -> InterfaceAddress.Family? {
        if let bytes = ipv4(host), bytes == [0, 0, 0, 0] { return .ipv4 }
        if let bytes = ipv6(host), bytes.allSatisfy({ $0 == 0 }) { return .ipv6 }
        return nil
    }

    /// Whether `host` is a wildcard address, which no peer can dial.
    static func isWildcard(_ host: String) -> Bool { PeerAddress(host: host, port: 0).isWildcard }

    /// Not a wildcard, loopback, link-local, multicast or broadcast address.
    private static func isRoutable(_ entry: InterfaceAddress) -> Bool {
        switch entry.family {
        case .ipv4:
            guard let b = ipv4(entry.address) else { return false }
            return b[0] != 0 && b[0] != 127 && !(b[0] == 169 && b[1] == 254) && b[0] < 224
        case .ipv6:
            guard let b = ipv6(entry.address) else { return false }
            let unspecifiedOrLoopback = b[0..<15].allSatisfy { $0 == 0 } && b[15] <= 1
            let linkLocal = b[0] == 0xFE && b[1] & 0xC0 == 0x80
            let mapped = b[0..<10].allSatisfy { $0 == 0 } && b[10] == 0xFF && b[11] == 0xFF
            return !unspecifiedOrLoopback && !linkLocal && b[0] != 0xFF && !mapped
        }
    }

    private static func ipv4(_ text: String) -> [UInt8]? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    private static func ipv6(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }
}
