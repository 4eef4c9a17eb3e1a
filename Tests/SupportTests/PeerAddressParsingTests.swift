import Support
import Testing

/// The one HOST:PORT parser: settings, share URLs, announced and stored addresses all go
/// through it, so its rules and messages are checked once here.
@Suite struct PeerAddressParsingTests {
    @Test(arguments: [
        ("127.0.0.1:7733", PeerAddress(host: "127.0.0.1", port: 7733)),
        ("[2001:db8::7]:1", PeerAddress(host: "2001:db8::7", port: 1)),
        ("photos.example.org:65535", PeerAddress(host: "photos.example.org", port: 65535)),
    ])
    func dialableAddressesParseAndPrintAsGiven(text: String, expected: PeerAddress) throws {
        #expect(try PeerAddress.parse(text) == expected)
        #expect(PeerAddress(parsing: text) == expected)
        #expect(expected.description == text)
    }

    @Test func portZeroIsOnlyForListening() throws {
        #expect(PeerAddress(parsing: "0.0.0.0:0") == nil)
        #expect(throws: PeerAddressError.notAPort("0", allowingZero: false)) {
            try PeerAddress.parse("0.0.0.0:0")
        }
        #expect(
            try PeerAddress.parse("0.0.0.0:0", allowingPortZero: true)
                == PeerAddress(host: "0.0.0.0", port: 0))
    }

    @Test(arguments: [
        ("", "'' is not HOST:PORT"),
        ("host", "'host' is not HOST:PORT"),
        (":80", "':80' is not HOST:PORT"),
        ("::1:80", "'::1:80' is not HOST:PORT"),
        ("a b:1", "'a b:1' is not HOST:PORT"),
        ("a/b:1", "'a/b:1' is not HOST:PORT"),
        ("[]:7733", "'[]:7733' is not [IPV6]:PORT"),
        ("[::1]80", "'[::1]80' is not [IPV6]:PORT"),
        ("[::1:80", "'[::1:80' is not [IPV6]:PORT"),
        ("host:", "'' is not a port number (1–65535)"),
        ("host:65536", "'65536' is not a port number (1–65535)"),
        ("host:-1", "'-1' is not a port number (1–65535)"),
        ("host:+80", "'+80' is not a port number (1–65535)"),
        ("[::1]:8o", "'8o' is not a port number (1–65535)"),
    ])
    func malformedAddressesSayWhichPartIsWrong(text: String, message: String) {
        let error = #expect(throws: PeerAddressError.self) { try PeerAddress.parse(text) }
        #expect(error?.description == message)
        #expect(PeerAddress(parsing: text) == nil)
    }
}
