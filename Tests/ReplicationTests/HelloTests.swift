import Store
import Testing

@testable import Replication

@Suite struct HelloTests {
    private let alice = PeerID(digest: [UInt8](repeating: 0xA1, count: 32))!
    private let bob = PeerID(digest: [UInt8](repeating: 0xB0, count: 32))!

    @Test func payloadLayoutIsMagicVersionPeerCapabilities() throws {
        let hello = Hello(
            version: 1, peerID: alice, capabilities: Capabilities(rawValue: 0x8000_0000_0000_0005))
        let expected: [UInt8] =
            Array("PSHR".utf8) + [0, 1] + [UInt8](repeating: 0xA1, count: 32)
            + [0x80, 0, 0, 0, 0, 0, 0, 5]
        #expect(hello.encodedPayload() == expected)
        #expect(hello.frame().type == .hello)
        #expect(try Hello(frame: hello.frame()) == hello)
    }

    @Test func fieldsAddedByLaterVersionsAreIgnored() throws {
        let hello = Hello(version: 7, peerID: bob, capabilities: [])
        #expect(try Hello(payload: hello.encodedPayload() + [1, 2, 3]) == hello)
    }

    @Test func theLargestFrameFollowsTheCapabilitiesAndBoundsWhatTheOtherSideSends() throws {
        let small = Hello(peerID: alice, maximumFrameSize: 65_536)
        #expect(small.encodedPayload().suffix(4) == [0, 1, 0, 0])
        #expect(try Hello(frame: small.frame()) == small)
        // Each side sends at most what the other accepts, and never more than it accepts itself.
        let big = Hello(peerID: bob, maximumFrameSize: 1 << 20)
        #expect(
            try VersionAgreement(local: big, remote: small, authenticatedPeer: alice).sendableFrameSize
                == 65_536)
        #expect(
            try VersionAgreement(local: small, remote: big, authenticatedPeer: bob).sendableFrameSize
                == 65_536)
        // A first-version peer says nothing: it accepts the default 16 MiB.
        let old = Hello(peerID: bob)
        #expect(try Hello(payload: old.encodedPayload()).maximumFrameSize == nil)
        #expect(
            try VersionAgreement(local: big, remote: old, authenticatedPeer: bob).sendableFrameSize == 1 << 20
        )
        // A peer asking for tiny frames is held to the smallest workable one.
        let tiny = Hello(peerID: bob, maximumFrameSize: 10)
        #expect(
            try VersionAgreement(local: big, remote: tiny, authenticatedPeer: bob).sendableFrameSize
                == WireLimits.minimumFrameSize)
    }

    @Test func anythingElseIsRefused() {
        #expect(throws: WireError.badMagic) { try Hello(payload: Array("GET / HTTP/1.1\r\n".utf8)) }
        #expect(throws: WireError.badMagic) { try Hello(payload: [0x50]) }
        let truncated = Array(Hello(peerID: alice).encodedPayload().dropLast())
        #expect(throws: WireError.truncated(field: "hello capabilities", needed: 8, remaining: 7)) {
            try Hello(payload: truncated)
        }
        #expect(throws: WireError.unexpectedMessage(type: 2, expected: "hello")) {
            try Hello(frame: Frame(type: MessageType(rawValue: 2), payload: []))
        }
    }

    @Test(
        arguments: [
            // local, remote, supported, agreed version (nil: refused)
            (1, 1, 1...1, 1),
            (1, 5, 1...1, 1),
            (3, 2, 1...3, 2),
            (3, 1, 2...3, nil),
            (2, 9, 1...2, 2),
        ] as [(UInt16, UInt16, ClosedRange<UInt16>, UInt16?)])
    func versionAgreementTakesTheLowerSupportedVersion(
        local: UInt16, remote: UInt16, supported: ClosedRange<UInt16>, agreed: UInt16?
    ) throws {
        let mine = Hello(version: local, peerID: alice)
        let theirs = Hello(version: remote, peerID: bob)
        if let agreed {
            let agreement = try VersionAgreement(
                local: mine, remote: theirs, authenticatedPeer: bob, supported: supported)
            #expect(agreement.version == agreed)
        } else {
            #expect(throws: WireError.unsupportedVersion(remote: remote, supported: supported)) {
                try VersionAgreement(
                    local: mine, remote: theirs, authenticatedPeer: bob, supported: supported)
            }
        }
    }

    @Test func capabilitiesAreThoseBothSidesHave() throws {
        let mine = Hello(peerID: alice, capabilities: Capabilities(rawValue: 0b0111))
        let theirs = Hello(peerID: bob, capabilities: Capabilities(rawValue: 0b1101))
        let agreement = try VersionAgreement(local: mine, remote: theirs, authenticatedPeer: bob)
        #expect(agreement.capabilities.rawValue == 0b0101)
    }

    @Test func aHelloClaimingAnotherPeerIsRefused() {
        #expect(throws: WireError.helloPeerMismatch) {
            try VersionAgreement(
                local: Hello(peerID: alice), remote: Hello(peerID: bob), authenticatedPeer: alice)
        }
    }
}

/// The hello's purpose (docs/PROTOCOL.md §4): what a connection is for, replacing the
/// previous release's bit 63, which is still understood.
@Suite struct HelloPurposeTests {
    private let alice = PeerID(digest: [UInt8](repeating: 0xA1, count: 32))!
    private let bob = PeerID(digest: [UInt8](repeating: 0xB0, count: 32))!

    @Test func thePurposeFollowsTheLargestFrame() throws {
        let guest = Hello(peerID: alice, maximumFrameSize: 65_536, purpose: .join)
        #expect(guest.encodedPayload().suffix(5) == [0, 1, 0, 0, 1])
        #expect(try Hello(frame: guest.frame()) == guest)
        // Without a largest frame of its own, the default one is written before the purpose.
        let bare = Hello(peerID: alice, purpose: .link)
        #expect(bare.encodedPayload().suffix(5) == [1, 0, 0, 0, 2])
        #expect(try Hello(frame: bare.frame()).purpose == .link)
        // The purpose is what the sender came for, whatever the other side says.
        let agreement = try VersionAgreement(
            local: Hello(peerID: bob, purpose: .sync), remote: guest, authenticatedPeer: alice)
        #expect(agreement.purpose == .join)
    }

    /// A guest of the previous release: no purpose, bit 63 set (and bit 0, addresses), no
    /// largest frame, encoded byte by byte as that release did.
    @Test func aGuestHelloOfThePreviousReleaseIsAJoinByItsBit() throws {
        let bytes =
            Array("PSHR".utf8) + [0, 1] + [UInt8](repeating: 0xA1, count: 32) + [0x80, 0, 0, 0, 0, 0, 0, 1]
        let old = try Hello(payload: bytes)
        #expect(old.purpose == nil)
        #expect(old.statedPurpose == .join)
        let agreement = try VersionAgreement(
            local: Hello(peerID: bob, purpose: .sync), remote: old, authenticatedPeer: alice)
        #expect(agreement.purpose == .join)
        #expect(agreement.capabilities == [])
        // The previous release's replication hello: no bit 63, a largest frame, no purpose.
        let sync = try Hello(payload: Array(bytes.prefix(38)) + [0, 0, 0, 0, 0, 0, 0, 1] + [1, 0, 0, 0])
        #expect(sync.purpose == nil && sync.statedPurpose == .sync)
    }

    @Test func aStatedPurposeOutranksTheOldBit() {
        let hello = Hello(peerID: alice, capabilities: .joining, purpose: .sync)
        #expect(hello.statedPurpose == .sync)
        #expect(Hello(peerID: alice, capabilities: .joining).statedPurpose == .join)
        #expect(Hello(peerID: alice).statedPurpose == .sync)
    }

    @Test func aPurposeThisBuildDoesNotKnowIsKeptToBeRefused() throws {
        var payload = Hello(peerID: alice, maximumFrameSize: 65_536).encodedPayload()
        payload.append(9)
        let hello = try Hello(payload: payload)
        #expect(hello.purpose == HelloPurpose(rawValue: 9))
        #expect(!HelloPurpose.served.contains(hello.statedPurpose))
        #expect(hello.statedPurpose.description == "purpose 9")
    }
}
