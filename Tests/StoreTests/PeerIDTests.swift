import Testing

@testable import Store

@Suite struct PeerIDTests {
    let id = PeerID(digest: (0..<32).map { UInt8($0 * 7 & 0xFF) })!

    @Test func printedFormRoundTrips() throws {
        let text = id.description
        #expect(text.count == 63)
        #expect(try PeerID(parsing: text) == id)
        #expect(try PeerID(parsing: text.lowercased().replacingOccurrences(of: "-", with: "")) == id)
    }

    @Test func aMistypedCharacterIsCaught() {
        var chars = Array(id.description)
        let i = 10
        chars[i] = chars[i] == "A" ? "B" : "A"
        #expect(throws: PeerIDError.checkFailed(group: 1)) { try PeerID(parsing: String(chars)) }
    }

    @Test func swappedNeighboursAreCaught() {
        var chars = Array(id.description)
        var i = 0
        while chars[i] == chars[i + 1] || chars[i] == "-" || chars[i + 1] == "-" { i += 1 }
        chars.swapAt(i, i + 1)
        #expect(throws: PeerIDError.self) { try PeerID(parsing: String(chars)) }
    }

    @Test func wrongLengthAndAlphabetAreExplained() {
        #expect(throws: PeerIDError.wrongLength(3)) { try PeerID(parsing: "abc") }
        let bad = "1" + id.description.dropFirst()
        #expect(throws: PeerIDError.invalidCharacter("1")) { try PeerID(parsing: bad) }
    }
}
