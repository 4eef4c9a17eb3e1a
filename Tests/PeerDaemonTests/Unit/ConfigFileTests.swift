import Testing

@testable import PeerDaemon

@Suite struct ConfigFileTests {
    @Test func commentsAndBlankLinesAreSkippedAndLinesKeepTheirNumbers() throws {
        let file = try ConfigFile.parse(
            "# a comment\n\n   # indented comment\nlisten = 127.0.0.1:1\n  log_level=debug  \n", path: "f")
        #expect(
            file.entries == [
                .init(key: "listen", value: "127.0.0.1:1", line: 4),
                .init(key: "log_level", value: "debug", line: 5),
            ])
    }

    @Test func aHashInsideAValueIsPartOfTheValue() throws {
        let file = try ConfigFile.parse("state_dir = /srv/photos#1\n", path: "f")
        #expect(file.entries.first?.value == "/srv/photos#1")
    }

    @Test(arguments: [
        ("listen 127.0.0.1:1\n", ConfigError.syntax(path: "f", line: 1, text: "listen 127.0.0.1:1")),
        ("\n= 3\n", ConfigError.syntax(path: "f", line: 2, text: "= 3")),
        ("log level = info\n", ConfigError.syntax(path: "f", line: 1, text: "log level = info")),
        (
            "log_level = info\n# x\nlog_level = debug\n",
            ConfigError.duplicateKey(path: "f", line: 3, key: "log_level", firstLine: 1)
        ),
    ])
    func malformedLinesAreRefusedWithTheirLineNumber(text: String, expected: ConfigError) {
        #expect(throws: expected) { try ConfigFile.parse(text, path: "f") }
    }

    @Test func errorMessagesNameFileLineKeyAndWhatIsAllowed() {
        #expect(
            ConfigError.syntax(path: "/c", line: 2, text: "x").description
                == "/c:2: expected 'key = value' or a '#' comment, found 'x'")
        #expect(
            ConfigError.duplicateKey(path: "/c", line: 3, key: "listen", firstLine: 1).description
                == "/c:3: 'listen' is already set on line 1; keep one of them")
        #expect(
            ConfigError.badValue(source: "/c:4", key: "log_level", value: "loud", allowed: "error or info")
                .description == "/c:4: bad value 'loud' for log_level: expected error or info")
    }
}
