import Foundation
import Replication
import Store
import Support
import Testing

@testable import PeerDaemon
@testable import Replication

/// `doctor`'s address and clock checks on made-up facts: the cases a test daemon on one
/// machine cannot produce (members elsewhere, a clock far ahead).
@Suite struct DoctorCheckTests {
    static let alice = PeerID(digest: Array(repeating: 7, count: 32))!

    static func facts(advertised: [String], peers: [PeerStatus] = [], newest: UInt64? = nil) -> DoctorFacts {
        DoctorFacts(
            listen: PeerAddress(host: "127.0.0.1", port: 7733),
            advertised: advertised.compactMap { PeerAddress(parsing: $0) }, localHosts: ["192.0.2.1"],
            peers: peers, newestStamps: newest.map { [alice: $0] } ?? [:], stateDirectory: "/nonexistent",
            controlSocket: "/nonexistent.sock", environment: [:], minFreeBytes: 0,
            maxClockAheadMilliseconds: 3_600_000, nowMilliseconds: 1_800_000_000_000, uid: 1000)
    }

    static func member(at address: String) -> PeerStatus {
        PeerStatus(
            peer: alice, address: PeerAddress(parsing: address), connected: false, paused: false,
            lastSeen: nil,
            connectedSince: nil, bytesIn: 0, bytesOut: 0, zones: ["z"], behind: nil,
            pendingData: 0,
            lastError: "cannot connect", addresses: [], neighbours: nil)
    }

    @Test func aWildcardAdvertisedIsAProblemNamingIt() {
        let findings = Doctor.addresses(Self.facts(advertised: ["0.0.0.0:7733"]))
        #expect(findings.map(\.severity) == [.problem])
        #expect(findings.first?.message.hasPrefix("advertises 0.0.0.0:7733, a wildcard address") == true)
        #expect(findings.first?.fix == Doctor.advertiseFix)
    }

    @Test func loopbackOnlyIsAProblemOnlyWhenAMemberIsOnAnotherMachine() {
        let remote = Doctor.addresses(
            Self.facts(advertised: ["127.0.0.1:7733"], peers: [Self.member(at: "198.51.100.4:7733")]))
        #expect(remote.map(\.severity) == [.problem])
        #expect(remote.first?.message.contains("198.51.100.4:7733") == true)
        let local = Doctor.addresses(
            Self.facts(advertised: ["127.0.0.1:7733"], peers: [Self.member(at: "192.0.2.1:7734")]))
        #expect(local.map(\.severity) == [.ok])
        let nobody = Doctor.addresses(Self.facts(advertised: ["127.0.0.1:7733"]))
        #expect(nobody.map(\.severity) == [.warning])
        let routable = Doctor.addresses(
            Self.facts(advertised: ["192.0.2.1:7733"], peers: [Self.member(at: "198.51.100.4:7733")]))
        #expect(routable.map(\.severity) == [.ok])
    }

    @Test func aMemberNotConnectedIsAWarningWithItsLastError() {
        let findings = Doctor.reachability(
            Self.facts(advertised: [], peers: [Self.member(at: "198.51.100.4:7733")]))
        #expect(findings.map(\.severity) == [.warning])
        #expect(
            findings.first?.message
                == "\(Self.alice.short): not connected at 198.51.100.4:7733: cannot connect")
    }

    @Test func stampsAheadOfThisClockShowASkew() {
        let now: UInt64 = 1_800_000_000_000
        let peers = [Self.member(at: "198.51.100.4:7733")]
        let cases: [(UInt64, DoctorFinding.Severity)] = [
            (now - 60_000, .ok), (now + 500, .ok), (now + 30_000, .warning), (now + 7_200_000, .problem),
        ]
        for (wall, severity) in cases {
            let findings = Doctor.clocks(Self.facts(advertised: [], peers: peers, newest: wall << 16))
            #expect(findings.map(\.severity) == [severity], "\(wall)")
        }
        let ahead = Doctor.clocks(Self.facts(advertised: [], peers: peers, newest: (now + 30_000) << 16))
        #expect(ahead.first?.message.contains("stamped 30 s after this machine's clock") == true)
        #expect(
            Doctor.clocks(Self.facts(advertised: [], peers: peers)).first?.message.hasPrefix("skew unknown")
                == true)
    }
}
