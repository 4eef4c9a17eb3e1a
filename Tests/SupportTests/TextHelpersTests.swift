import Support
import Testing

/// The text and path helpers that stand in for Foundation's in the daemon's modules: each
/// must give what the Foundation call it replaced gave.
@Suite struct TextHelpersTests {
    @Test func percentEncodingKeepsUnreservedCharactersAndEncodesTheRestAsUTF8() {
        let encoded = PercentEncoding.encode(
            "Été à la plage/2026 & co~", keeping: PercentEncoding.isUnreserved)
        #expect(encoded == "%C3%89t%C3%A9%20%C3%A0%20la%20plage%2F2026%20%26%20co~")
        #expect(PercentEncoding.decode(encoded) == "Été à la plage/2026 & co~")
    }

    @Test func percentDecodingRefusesBrokenEscapesAndBytesThatAreNotUTF8() {
        #expect(PercentEncoding.decode("a%2") == nil)
        #expect(PercentEncoding.decode("a%zz") == nil)
        #expect(PercentEncoding.decode("%FF%FE") == nil)
        #expect(PercentEncoding.decode("plain-text") == "plain-text")
        #expect(PercentEncoding.decode("%e2%9c%93") == "✓")
    }

    @Test func trimmingRemovesWhiteSpaceAndLineBreaksAtBothEndsOnly() {
        #expect(" \t summer beach \n\r\n".trimmingWhitespace() == "summer beach")
        #expect("\u{00A0}\u{2003}x\u{2028}".trimmingWhitespace() == "x")
        #expect(" \n\t ".trimmingWhitespace() == "")
        #expect("".trimmingWhitespace() == "")
        #expect("1234\n"[...].trimmingWhitespace() == "1234")
    }

    @Test func theParentOfAPathIsItsDirectoryPart() {
        #expect(FilePaths.parent(of: "/run/user/1000/peershare/control.sock") == "/run/user/1000/peershare")
        #expect(FilePaths.parent(of: "/control.sock") == "/")
        #expect(FilePaths.parent(of: "/a/b/") == "/a")
        #expect(FilePaths.parent(of: "control.sock") == "")
        #expect(FilePaths.parent(of: "/") == "/")
    }

    @Test func aDirectoryIsToldFromAFileAndFromNothing() throws {
        #expect(FilePaths.isDirectory("/tmp"))
        #expect(!FilePaths.isDirectory("/proc/self/status"))
        #expect(!FilePaths.isDirectory("/nonexistent-\(UInt64.random(in: 0...UInt64.max))"))
    }
}
