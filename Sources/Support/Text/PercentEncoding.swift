/// Percent-encoding of text in share and link URLs (RFC 3986's `%XX` over UTF-8 bytes),
/// without Foundation: the daemon's modules link FoundationEssentials only.
public enum PercentEncoding {
    /// `text` with every UTF-8 byte that `keep` refuses written as `%XX` (upper-case hex).
    public static func encode(_ text: String, keeping keep: (UInt8) -> Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keep(byte) {
                output.append(byte)
            } else {
                output += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` with each `%XX` turned back into its byte; nil when a `%` is not followed by
    /// two hex digits or the bytes are not UTF-8 (as Foundation's `removingPercentEncoding`).
    public static func decode(_ text: some StringProtocol) -> String? {
        var output: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard bytes.count >= 2, let high = value(bytes.removeFirst()),
                let low = value(bytes.removeFirst())
            else { return nil }
            output.append(high << 4 | low)
        }
        return String(validating: output, as: UTF8.self)
    }

    /// Unreserved characters of RFC 3986: letters, digits, `-`, `.`, `_`, `~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
