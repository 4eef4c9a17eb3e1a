import Testing

@testable import PeerShareCLI

/// "Did you mean": the edit distance, and which names are close enough to suggest.
struct SuggestionsTests {
    @Test(arguments: [
        ("share", "share", 0), ("shre", "share", 1), ("sahre", "share", 1), ("lst", "list", 1),
        ("--tga", "--tag", 1), ("frob", "rate", 4), ("", "id", 2), ("abc", "", 3), ("ca", "abc", 3),
    ])
    func distance(a: String, b: String, expected: Int) {
        #expect(Suggestions.distance(a, b) == expected)
        #expect(Suggestions.distance(b, a) == expected)
    }

    @Test(arguments: [
        ("shre", ["share", "status", "sync"], ["share"]),
        ("sh", ["share", "status", "sync"], ["share"]),
        ("st", ["share", "status", "stop"], ["status", "stop"]),
        ("s", ["share", "status", "sync"], []),
        ("frob", ["rate", "tag", "id"], []),
        ("ix", ["id", "tag"], ["id"]),
        ("xy", ["id", "tag"], []),
        ("--tga", ["--tag", "--share", "--json"], ["--tag"]),
        ("--jsn", ["--tag", "--share", "--json"], ["--json"]),
        ("--t", ["--tag", "--timeout"], []),
    ])
    func closest(typed: String, candidates: [String], expected: [String]) {
        #expect(Suggestions.closest(to: typed, among: candidates) == expected)
    }

    @Test func phrase() {
        #expect(Suggestions.phrase([]) == nil)
        #expect(Suggestions.phrase(["a"]) == "did you mean 'a'?")
        #expect(Suggestions.phrase(["a", "b"]) == "did you mean 'a' or 'b'?")
        #expect(Suggestions.phrase(["a", "b", "c"]) == "did you mean 'a', 'b' or 'c'?")
    }
}
