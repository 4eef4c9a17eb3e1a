import Store
import Support
import Testing

@testable import Replication

@Suite struct ShareURLTests {
    let owner = PeerID(digest: [UInt8](repeating: 7, count: 32))!
    let zone = "0b7a3f5e-1c2d-4e5f-8a9b-0c1d2e3f4a5b"
    let token = "00112233445566778899aabbccddeeff"

    @Test func aURLRoundTripsWithItsTitle() throws {
        let url = ShareURL(
            host: "127.0.0.1", port: 7733, zone: zone, owner: owner, token: token, title: "Été & co")
        let text = url.description
        #expect(text.hasPrefix("peershare://127.0.0.1:7733/\(zone)/owner=\(owner)/invite=\(token)/title="))
        #expect(try ShareURL(parsing: text) == url)
    }

    @Test func aURLSurvivesAShellUnquotedAndTheOlderFormIsStillRead() throws {
        let url = ShareURL(
            host: "127.0.0.1", port: 7733, zone: zone, owner: owner, token: token,
            title: "Été & co; \"$HOME\" *?#!|<>(){}`'\\ ~/x",
            alsoAt: [try PeerAddress.parse("192.0.2.7:7733")])
        let text = url.description
        let shellSpecial = Set(" \t\n&;|<>()$`\\\"'*?#!{}")
        #expect(!text.contains { shellSpecial.contains($0) }, "\(text)")
        #expect(try ShareURL(parsing: text) == url)
        let older =
            "peershare://127.0.0.1:7733/\(zone)?owner=\(owner)&invite=\(token)&title=Holidays%20%26%20co"
            + "&at=192.0.2.7:7733"
        let parsed = try ShareURL(parsing: older)
        #expect(parsed.title == "Holidays & co" && parsed.token == token && parsed.owner == owner)
        #expect(parsed.alsoAt == [try PeerAddress.parse("192.0.2.7:7733")])
    }

    @Test func membersTheURLListsRoundTripAndBadOnesAreExplained() throws {
        let member = ShareURL.Member(
            peer: PeerID(digest: [UInt8](repeating: 9, count: 32))!,
            address: try PeerAddress.parse("[::1]:7734"))
        let url = ShareURL(
            host: "127.0.0.1", port: 7733, zone: zone, owner: owner, token: token, title: "T",
            members: [member])
        #expect(url.description.hasSuffix("/member=\(member.peer)@[::1]:7734"))
        #expect(try ShareURL(parsing: url.description) == url)
        #expect(try ShareURL(parsing: url.description).members == [member])

        let base = "peershare://h:1/\(zone)?owner=\(owner)&invite=\(token)"
        #expect(throws: ShareURLError.invalid("member", "'h:2' is not PEER_ID@HOST:PORT")) {
            try ShareURL(parsing: base + "&member=h:2")
        }
        let many = String(repeating: "&member=\(member.peer)@h:2", count: ShareURL.maximumMembers + 1)
        #expect(
            throws: ShareURLError.invalid("member", "the URL lists 17 members; at most 16 are read")
        ) {
            try ShareURL(parsing: base + many)
        }
        #expect(throws: ShareURLError.self) { try ShareURL(parsing: base + "&member=XYZ@h:2") }
    }

    @Test func theOwnersFurtherAddressesRoundTripAndBadOnesAreExplained() throws {
        let further = [try PeerAddress.parse("192.0.2.7:7733"), try PeerAddress.parse("[2001:db8::7]:7733")]
        let url = ShareURL(
            host: "127.0.0.1", port: 7733, zone: zone, owner: owner, token: token, alsoAt: further)
        #expect(url.description.hasSuffix("/at=192.0.2.7:7733/at=[2001:db8::7]:7733"))
        let parsed = try ShareURL(parsing: url.description)
        #expect(parsed == url)
        #expect(parsed.ownerAddresses == [PeerAddress(host: "127.0.0.1", port: 7733)] + further)

        let base = "peershare://h:1/\(zone)?owner=\(owner)&invite=\(token)"
        #expect(throws: ShareURLError.self) { try ShareURL(parsing: base + "&at=nowhere") }
        let many = String(repeating: "&at=h:2", count: ShareURL.maximumAddresses + 1)
        #expect(
            throws: ShareURLError.invalid("at", "the URL lists 9 further owner addresses; at most 8 are read")
        ) {
            try ShareURL(parsing: base + many)
        }
        #expect(try ShareURL(parsing: base).alsoAt.isEmpty, "the first version's form")
    }

    @Test func ipv6HostsAreBracketed() throws {
        let url = ShareURL(host: "::1", port: 9, zone: zone, owner: owner, token: token)
        #expect(url.description.hasPrefix("peershare://[::1]:9/"))
        #expect(try ShareURL(parsing: url.description) == url)
    }

    @Test(arguments: [
        (
            "http://x",
            "not a share URL: it must start with peershare:// (copy the whole URL the owner gave you)"
        ),
        ("peershare://host:7733", "the share URL lacks the share ID after HOST:PORT/: copy the whole URL"),
        ("peershare://host/abc", "malformed share URL (address): 'host' is not HOST:PORT"),
        ("peershare://host:0/abc", "malformed share URL (address): '0' is not a port number (1–65535)"),
        ("peershare://host:1/abc?owner=x", "malformed share URL (share ID): 'abc' is not a share ID"),
    ])
    func malformedURLsAreExplained(text: String, message: String) {
        #expect(throws: ShareURLError.self) { try ShareURL(parsing: text) }
        do {
            _ = try ShareURL(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }

    /// Found by scripts/fuzz (shareurl): "[]:PORT" parsed with an empty host, printed as
    /// ":PORT", which does not parse.
    @Test func anEmptyBracketedHostIsRefused() {
        let text = "peershare://[]:7733/\(zone)?owner=\(owner)&invite=\(token)"
        #expect(throws: ShareURLError.invalid("address", "'[]:7733' is not [IPV6]:PORT")) {
            try ShareURL(parsing: text)
        }
    }

    @Test func aMistypedOwnerOrShortTokenIsRefused() {
        let base = "peershare://h:1/\(zone)"
        #expect(throws: ShareURLError.missing("owner=PEER_ID")) {
            try ShareURL(parsing: base + "?invite=\(token)")
        }
        #expect(throws: ShareURLError.missing("invite=TOKEN")) {
            try ShareURL(parsing: base + "?owner=\(owner)")
        }
        var typo = Array(owner.description)
        typo[3] = typo[3] == "A" ? "B" : "A"
        #expect(throws: ShareURLError.self) {
            try ShareURL(parsing: base + "?owner=\(String(typo))&invite=\(token)")
        }
        #expect(
            throws: ShareURLError.invalid(
                "invite", "the token must be at least 32 hexadecimal characters; copy the whole URL")
        ) { try ShareURL(parsing: base + "?owner=\(owner)&invite=abcd") }
    }
}
