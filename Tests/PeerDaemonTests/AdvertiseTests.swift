import ControlProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// What share URLs and `status` say other peers should dial: never a wildcard.
///
/// The exact cases run the daemon in a network namespace of its own (`unshare --net`,
/// root only), so the interfaces it sees are the test's: a veth pair with known
/// addresses, or only loopback.
@Suite(.onOwnThreads) struct AdvertiseTests {
    static let canMakeNetworks =
        geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip")

    /// Runs the daemon in a new network namespace after `setup` (ip commands) ran there.
    static func namespace(_ setup: [String]) -> [String] {
        let script =
            (["/usr/sbin/ip link set lo up"] + setup.map { "/usr/sbin/ip " + $0 } + [#"exec "$0" "$@""#])
            .joined(separator: " && ")
        return ["/usr/bin/unshare", "--net", "--", "/bin/sh", "-c", script]
    }

    /// A veth pair whose `va` end has 192.0.2.10 and 2001:db8::10 (and a link-local
    /// address of its own), `vb` only a link-local one.
    static let vethWithAddresses = namespace([
        "link add va type veth peer name vb", "addr add 192.0.2.10/24 dev va",
        "addr add 2001:db8::10/64 dev va nodad", "link set va up", "link set vb up",
    ])

    private func port(_ status: JSON) throws -> String {
        let listen = try #require(status["listen"]?.stringValue)
        return String(try #require(listen.split(separator: ":").last))
    }

    @Test(.enabled(if: canMakeNetworks))
    func aWildcardListenAddressAdvertisesTheInterfaceAddressesAndTheURLCarriesTheFirst() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(
            in: directory, arguments: ["--listen", "0.0.0.0:0"], launcher: Self.vethWithAddresses)
        let status = try daemon.json("status")
        let port = try port(status)
        #expect(status["listen"] == .string("0.0.0.0:\(port)"))
        #expect(status["advertise"] == .string("192.0.2.10:\(port)"))
        #expect(status["advertise_all"] == [.string("192.0.2.10:\(port)")])

        let photo = try daemon.addPhoto(try directory.write("a.jpg", bytes: randomBytes(100)))
        let url = try #require(try daemon.json("share", "create", photo)["url"]?.stringValue)
        #expect(url.hasPrefix("peershare://192.0.2.10:\(port)/"))
        #expect(!url.contains("0.0.0.0"))
        let human = try daemon.cli("status")
        #expect(human.stdout.contains("\nadvertise       192.0.2.10:\(port)\n"))
    }

    @Test(.enabled(if: canMakeNetworks))
    func anIPv6WildcardAdvertisesIPv4ThenGlobalIPv6AndNoLinkLocalAddress() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(
            in: directory, arguments: ["--listen", "[::]:0"], launcher: Self.vethWithAddresses)
        let status = try daemon.json("status")
        let port = try port(status)
        #expect(
            status["advertise_all"] == [.string("192.0.2.10:\(port)"), .string("[2001:db8::10]:\(port)")])
    }

    @Test(.enabled(if: canMakeNetworks))
    func withOnlyLoopbackShareCreateRefusesAndSaysWhatToSet() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(
            in: directory, arguments: ["--listen", "0.0.0.0:0"], launcher: Self.namespace([]))
        let status = try daemon.json("status")
        #expect(status["advertise"] == .null)
        #expect(status["advertise_all"] == [])
        let listen = try #require(status["listen"]?.stringValue)

        let photo = try daemon.addPhoto(try directory.write("a.jpg", bytes: randomBytes(100)))
        let before = try daemon.snapshot()
        #expect(
            try daemon.refusal("share", "create", photo)
                == ControlError(
                    "no_advertised_address",
                    "no address to put in a share URL: peershared listens on \(listen), a wildcard, and no network "
                        + "interface other than loopback is up; set advertise = HOST:PORT in peershared.conf (or "
                        + "start peershared with --advertise HOST:PORT) to the address peers should dial, then retry"
                ))
        #expect(try daemon.snapshot() == before)
        #expect(try daemon.json("share", "list") == [])
    }

    @Test func aGivenAdvertiseAddressIsWhatTheURLCarries() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(
            in: directory,
            arguments: [
                "--listen", "0.0.0.0:0", "--advertise", "photos.example.org:7733", "--advertise",
                "[2001:db8::7]:7733",
            ])
        let status = try daemon.json("status")
        #expect(status["advertise"] == "photos.example.org:7733")
        let all = try #require(status["advertise_all"]?.arrayValue)
        #expect(Array(all.prefix(2)) == ["photos.example.org:7733", "[2001:db8::7]:7733"])
        #expect(!all.contains { $0.stringValue?.hasPrefix("0.0.0.0") == true })

        let photo = try daemon.addPhoto(try directory.write("a.jpg", bytes: randomBytes(100)))
        let url = try #require(try daemon.json("share", "create", photo)["url"]?.stringValue)
        #expect(url.hasPrefix("peershare://photos.example.org:7733/"))
        let shown = try daemon.json(
            "share", "show", String(try #require(url.split(separator: "/").dropFirst(2).first?.prefix(36))))
        #expect(shown["url"] == .string(url))
    }

    @Test func onThisMachineAWildcardIsNeverAdvertised() throws {
        // Whatever interfaces this machine has: never 0.0.0.0 in status or a URL.
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory, arguments: ["--listen", "0.0.0.0:0"])
        let status = try daemon.json("status")
        let advertised = (status["advertise_all"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(
            !advertised.contains { $0.hasPrefix("0.0.0.0:") || $0.hasPrefix("127.") || $0.hasPrefix("[fe80") }
        )
        #expect(status["advertise"] == (advertised.first.map(JSON.string) ?? .null))
        let photo = try daemon.addPhoto(try directory.write("a.jpg", bytes: randomBytes(100)))
        let created = try CLI.run(
            ["--json", "--socket", daemon.socketPath, "share", "create", photo], in: directory)
        #expect(!created.stdout.contains("0.0.0.0"))
        if advertised.isEmpty {
            #expect(created.status == 1 && created.stdout.contains("no_advertised_address"))
        } else {
            #expect(created.status == 0 && created.stdout.contains("peershare://\(advertised[0])/"))
        }
    }
}
