import Foundation

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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSON tree cannot fail: it holds only encodable leaves, and the numbers
        // it holds came from parsed text or from integers.
        return (try? encoder.encode(value)) ?? Data("null".utf8)
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
