import Foundation
import Support
import Testing

@testable import PeerDaemon

/// Which addresses share URLs carry: the rules on given interface lists, and the
/// `advertise` setting's list form.
@Suite struct AdvertisedAddressesTests {
    static func up(_ address: String, _ name: String = "eth0") -> InterfaceAddress {
        InterfaceAddress(
            interface: name, family: address.contains(":") ? .ipv6 : .ipv4, address: address, isUp: true,
            isLoopback: false)
    }

    static let machine: [InterfaceAddress] = [
        InterfaceAddress(interface: "lo", family: .ipv4, address: "127.0.0.1", isUp: true, isLoopback: true),
        InterfaceAddress(interface: "lo", family: .ipv6, address: "::1", isUp: true, isLoopback: true),
        up("fe80::fc:ff:fe00:1"), up("2001:db8::2"), up("192.0.2.2"), up("169.254.7.7", "eth1"),
        up("fd00::2"), up("10.1.2.3", "wlan0"),
        InterfaceAddress(
            interface: "eth2", family: .ipv4, address: "198.51.100.9", isUp: false, isLoopback: false),
        // A loopback address on an interface not flagged loopback is still not routable.
        up("127.0.0.2", "dummy0"), up("0.0.0.0", "odd0"), up("::", "odd0"), up("ff02::1", "eth0"),
        up("::ffff:192.0.2.2", "eth0"),
    ]

    private func hosts(_ addresses: [PeerAddress]) -> [String] { addresses.map(\.description) }

    @Test func anIPv4WildcardAdvertisesTheUpNonLoopbackNonLinkLocalIPv4Addresses() {
        let resolved = AdvertisedAddresses.resolve(
            configured: [], bound: PeerAddress(host: "0.0.0.0", port: 7733), interfaces: Self.machine)
        #expect(hosts(resolved) == ["192.0.2.2:7733", "10.1.2.3:7733"])
    }

    @Test func anIPv6WildcardAdvertisesIPv4FirstThenGlobalIPv6() {
        let resolved = AdvertisedAddresses.resolve(
            configured: [], bound: PeerAddress(host: "::", port: 41000), interfaces: Self.machine)
        #expect(
            hosts(resolved) == [
                "192.0.2.2:41000", "10.1.2.3:41000", "[2001:db8::2]:41000", "[fd00::2]:41000",
            ])
    }

    @Test func nothingRoutableMeansNothingAdvertisedNeverTheWildcard() {
        let loopbackOnly = Array(Self.machine.prefix(2)) + [Self.up("fe80::1")]
        #expect(
            AdvertisedAddresses.resolve(
                configured: [], bound: PeerAddress(host: "0.0.0.0", port: 7733), interfaces: loopbackOnly)
                == [])
        #expect(
            AdvertisedAddresses.resolve(
                configured: [], bound: PeerAddress(host: "::", port: 7733), interfaces: loopbackOnly) == [])
    }

    @Test func theConfiguredAddressesComeFirstAndWildcardsAddTheInterfaces() {
        let configured = [
            PeerAddress(host: "photos.example.org", port: 7733), PeerAddress(host: "192.0.2.2", port: 7733),
        ]
        let wildcard = AdvertisedAddresses.resolve(
            configured: configured, bound: PeerAddress(host: "0.0.0.0", port: 7733), interfaces: Self.machine)
        #expect(hosts(wildcard) == ["photos.example.org:7733", "192.0.2.2:7733", "10.1.2.3:7733"])
        // A specific listen address: the configured list replaces it; without one, it is it.
        let specific = PeerAddress(host: "127.0.0.1", port: 5000)
        #expect(
            AdvertisedAddresses.resolve(configured: configured, bound: specific, interfaces: Self.machine)
                == configured)
        #expect(AdvertisedAddresses.resolve(configured: [], bound: specific, interfaces: []) == [specific])
    }

    @Test(arguments: ["0.0.0.0", "::", "0:0:0:0:0:0:0:0"])
    func wildcardsAreRecognised(host: String) {
        #expect(AdvertisedAddresses.isWildcard(host))
    }

    @Test(arguments: ["127.0.0.1", "::1", "192.0.2.2", "example.org", "photos"])
    func otherHostsAreNotWildcards(host: String) {
        #expect(!AdvertisedAddresses.isWildcard(host))
    }

    @Test func theSettingTakesAListAndTheFlagAddsUp() throws {
        let parsed = try DaemonArguments.parse([
            "--advertise", "a.example:1, [2001:db8::7]:2", "--advertise=b.example:3",
        ])
        let settings = try SettingsLoader(
            arguments: parsed, environment: ["HOME": "/h"], workingDirectory: "/"
        )
        .load()
        #expect(
            settings.advertise == [
                PeerAddress(host: "a.example", port: 1), PeerAddress(host: "2001:db8::7", port: 2),
                PeerAddress(host: "b.example", port: 3),
            ])
    }

    @Test(arguments: ["0.0.0.0:7733", "[::]:7733", "a.example:0", "a.example:1,", "a.example:1,,b:2", ""])
    func aWildcardAPortOfZeroOrAnEmptyEntryIsRefused(value: String) throws {
        let parsed = try DaemonArguments.parse(["--advertise", value])
        #expect(throws: ConfigError.self) {
            try SettingsLoader(arguments: parsed, environment: ["HOME": "/h"], workingDirectory: "/").load()
        }
    }
}
