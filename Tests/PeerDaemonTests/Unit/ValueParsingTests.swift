import Support
import Testing

@testable import PeerDaemon

@Suite struct ValueParsingTests {
    @Test(arguments: [
        ("127.0.0.1:7733", PeerAddress(host: "127.0.0.1", port: 7733)),
        ("0.0.0.0:0", PeerAddress(host: "0.0.0.0", port: 0)),
        ("[::1]:80", PeerAddress(host: "::1", port: 80)),
        ("photos.example.org:65535", PeerAddress(host: "photos.example.org", port: 65535)),
    ])
    func validAddresses(text: String, expected: PeerAddress) {
        #expect(PeerAddress.listen(text) == expected)
        #expect(PeerAddress.listen(text)?.description == text)
    }

    @Test(arguments: [
        "", "host", ":80", "host:", "host:65536", "::1:80", "[::1]80", "host:-1", "a b:1", "h:8o",
    ])
    func invalidAddresses(text: String) {
        #expect(PeerAddress.listen(text) == nil)
    }

    @Test(arguments: [
        ("1024", 1024), ("64KiB", 65536), ("1MiB", 1 << 20), ("16 MiB", 16 << 20), ("4GiB", 4 << 30),
        ("1TiB", 1 << 40),
    ])
    func byteCounts(text: String, expected: Int) {
        #expect(ByteCount.parse(text) == expected)
    }

    @Test(arguments: ["", "MiB", "1.5MiB", "-1", "1MB", "1 kib", "99999999999999999999"])
    func invalidByteCounts(text: String) {
        #expect(ByteCount.parse(text) == nil)
    }

    @Test func byteCountsPrintInTheLargestExactUnit() {
        #expect(ByteCount.format(1 << 20) == "1MiB")
        #expect(ByteCount.format(4 << 30) == "4GiB")
        #expect(ByteCount.format(1536) == "1536")
        #expect(ByteCount.format(1024) == "1KiB")
    }

    @Test func uptimeIsReportedInSecondsToTheMillisecond() {
        #expect(ControlRoutes.seconds(.milliseconds(5750)) == 5.75)
        #expect(ControlRoutes.seconds(.seconds(3600) + .microseconds(1500)) == 3600.001)
        #expect(ControlRoutes.seconds(.zero) == 0)
    }

    @Test func logLevelsAreJournaldPriorities() {
        #expect(LogLevel.allCases.map(\.rawValue) == [3, 4, 6, 7])
        #expect(LogLevel(name: "warning") == .warning)
        #expect(LogLevel(name: "warn") == nil)
        #expect(LogLevel.error < LogLevel.debug)
    }

    @Test func logLinesCarryThePriorityAndSortedQuotedMetadata() {
        #expect(
            LogLine.format(level: .warning, message: "peer gone", metadata: ["zone": "z 1", "peer": "ABC"])
                == #"<4>peer gone peer=ABC zone="z 1""#)
        #expect(LogLine.format(level: .debug, message: "two\nlines", metadata: [:]) == #"<7>two\nlines"#)
    }
}
