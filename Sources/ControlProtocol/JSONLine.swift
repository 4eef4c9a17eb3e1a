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

    /// Parses one line (without its newline); nil when it is not valid JSON.
    public static func decode(_ line: Data) -> JSON? {
        try? JSONDecoder().decode(JSON.self, from: line)
    }
}
