import Testing

@testable import PeerDaemon

/// The gallery's pure parts: byte ranges, image types from bytes, the Host rule, logins.
struct WebPartsTests {
    @Test(
        arguments: [
            (nil, ByteRange.whole), ("bytes=0-9", .part(offset: 0, length: 10)),
            ("bytes=90-", .part(offset: 90, length: 10)), ("bytes=-5", .part(offset: 95, length: 5)),
            ("bytes=-500", .part(offset: 0, length: 100)), ("bytes=50-500", .part(offset: 50, length: 50)),
            ("bytes=100-", .unsatisfiable), ("bytes=-0", .unsatisfiable), ("bytes=9-3", .unsatisfiable),
            ("bytes=0-1,5-6", .whole), ("items=0-9", .whole), ("bytes=x-y", .whole), ("bytes=", .whole),
        ] as [(String?, ByteRange)])
    func rangesResolveAgainstTheSize(header: String?, expected: ByteRange) {
        #expect(ByteRange(header: header, size: 100) == expected)
    }

    @Test func imageTypesAreReadFromTheFirstBytes() {
        #expect(ImageType.of([0xFF, 0xD8, 0xFF, 0xE1]) == "image/jpeg")
        #expect(ImageType.of([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == "image/png")
        #expect(ImageType.of(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == "image/webp")
        #expect(ImageType.of(Array("\0\0\0\u{18}ftypheic".utf8)) == "image/heic")
        #expect(ImageType.of([0x49, 0x49, 0x2A, 0x00]) == "image/tiff")
        #expect(ImageType.of(Array("<html><script>".utf8)) == "application/octet-stream")
        #expect(ImageType.of([]) == "application/octet-stream")
    }

    @Test func onlyAddressesAndLocalhostWithThePortAreThisServer() {
        #expect(WebRouter.isLocalHost("127.0.0.1:7734", port: 7734))
        #expect(WebRouter.isLocalHost("localhost:7734", port: 7734))
        #expect(WebRouter.isLocalHost("[::1]:7734", port: 7734))
        #expect(WebRouter.isLocalHost("192.168.1.5:7734", port: 7734))
        #expect(!WebRouter.isLocalHost("127.0.0.1:7735", port: 7734))
        #expect(!WebRouter.isLocalHost("evil.example:7734", port: 7734))
        #expect(!WebRouter.isLocalHost("127.0.0.1", port: 7734))
        #expect(!WebRouter.isLocalHost(nil, port: 7734))
    }

    @Test func aLoginLinkOpensOneSessionOnce() throws {
        let gate = WebGate(base: "http://127.0.0.1:7734", port: 7734)
        let url = gate.loginURL()
        #expect(url.hasPrefix("http://127.0.0.1:7734/login?token="))
        let token = String(url.dropFirst("http://127.0.0.1:7734/login?token=".count))
        #expect(token.count == 64)
        #expect(gate.logIn(token: "nope") == nil)
        let session = try #require(gate.logIn(token: token))
        #expect(gate.logIn(token: token) == nil, "a link works once")
        let csrf = try #require(gate.csrfToken(session: session))
        #expect(csrf != session && csrf.count == 64)
        #expect(gate.csrfToken(session: String(session.reversed())) == nil)
        #expect(gate.csrfToken(session: "") == nil)
        #expect(
            gate.cookie(session: session) == "peershare_7734=\(session); Path=/; HttpOnly; SameSite=Strict")
    }

    @Test func logInsBeyondTheLimitPushOutTheOldest() {
        let gate = WebGate(base: "http://127.0.0.1:1", port: 1)
        let first = gate.loginURL()
        for _ in 0..<WebGate.maximumLogins { _ = gate.loginURL() }
        let token = String(first.split(separator: "=").last ?? "")
        #expect(gate.logIn(token: token) == nil)
    }
}
