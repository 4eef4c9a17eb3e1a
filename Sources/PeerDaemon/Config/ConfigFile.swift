import FoundationEssentials
import Glibc

/// The `key = value` lines of a config file, with line numbers kept for error messages.
///
/// Only syntax is checked here (and duplicates); whether a key or value is allowed is
/// `SettingsTable`'s business, applied by `SettingsLoader`.
struct ConfigFile: Sendable, Equatable {
    /// One `key = value` line.
    struct Entry: Sendable, Equatable {
        let key: String
        let value: String
        let line: Int
    }

    let path: String
    let entries: [Entry]

    /// Reads and parses the file at `path`.
    static func read(path: String) throws(ConfigError) -> ConfigFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
            throw .unreadable(path: path, reason: reason)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path: path, reason: "it is not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// Parses config text; `path` only labels errors. Whole-line `#` comments and blank
    /// lines are skipped; a `#` inside a value is part of the value.
    static func parse(_ text: String, path: String) throws(ConfigError) -> ConfigFile {
        var entries: [Entry] = []
        var firstLineOfKey: [String: Int] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let line = trimmed(rawLine)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw .syntax(path: path, line: lineNumber, text: line)
            }
            let key = trimmed(line[..<equals])
            let value = trimmed(line[line.index(after: equals)...])
            guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else {
                throw .syntax(path: path, line: lineNumber, text: line)
            }
            if let first = firstLineOfKey[key] {
                throw .duplicateKey(path: path, line: lineNumber, key: key, firstLine: first)
            }
            firstLineOfKey[key] = lineNumber
            entries.append(Entry(key: key, value: value, line: lineNumber))
        }
        return ConfigFile(path: path, entries: entries)
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
