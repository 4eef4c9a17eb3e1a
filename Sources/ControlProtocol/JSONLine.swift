import FoundationEssentials

/// Turns JSON values into the protocol's lines and back.
///
/// One place fixes the encoding every peer of the socket sees: compact, keys sorted (so
/// output is stable for scripts and tests), one value per line. JSON escapes newlines inside
/// strings, so a newline byte always ends a message.
public enum JSONLine {
    /// The value's compact text followed by a newline.
    public static func encode(_ value: JSON) -> Data {
        var data = text(value)
        data.append(0x0A)
        return data
    }

    /// The value's compact text, without a newline.
    public static func text(_ value: JSON) -> Data {
        // Written directly: every `watch` event and response goes through here, and
        // Foundation's encoder cost a busy participant a twelfth of its CPU. A floating-point
        // number is still spelled by Foundation, alone.
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return Data(out)
    }

    /// The text Foundation's encoder gives: compact, keys sorted, slashes not escaped.
    static func foundationText(_ value: JSON) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSON tree cannot fail: it holds only encodable leaves, and the numbers
        // it holds came from parsed text or from integers.
        return (try? encoder.encode(value)) ?? Data("null".utf8)
    }

    private static func write(_ value: JSON, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: Array("null".utf8))
        case .bool(let flag): out.append(contentsOf: Array((flag ? "true" : "false").utf8))
        case .int(let number): out.append(contentsOf: Array(String(number).utf8))
        case .double: out.append(contentsOf: foundationText(value))  // a fragment of its own
        case .string(let text): write(text, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(members[key]!, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    private static func write(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The value's compact text as a String.
    public static func string(_ value: JSON) -> String {
        String(decoding: text(value), as: UTF8.self)
    }

    /// How deeply arrays and objects nest in `line` (outside strings), found in one pass
    /// without parsing; for malformed text, a bound all the same.
    public static func nestingDepth(of line: Data) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in line {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// Parses one line (without its newline); nil when it is not valid JSON.
    public static func decode(_ line: Data) -> JSON? {
        try? JSONDecoder().decode(JSON.self, from: line)
    }
}
