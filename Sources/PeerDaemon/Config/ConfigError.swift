/// Why the configuration was refused: each case names where (file and line, or flag),
/// which key, and what is allowed, so the fix is obvious from the message alone.
enum ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case syntax(path: String, line: Int, text: String)
    case unknownKey(path: String, line: Int, key: String)
    case duplicateKey(path: String, line: Int, key: String, firstLine: Int)
    /// `source` is `FILE:LINE` for the config file or the flag's name.
    case badValue(source: String, key: String, value: String, allowed: String)
    /// The command line itself is wrong (unknown flag, missing value).
    case usage(String)

    var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read config file \(path): \(reason)"
        case .syntax(let path, let line, let text):
            return "\(path):\(line): expected 'key = value' or a '#' comment, found '\(text)'"
        case .unknownKey(let path, let line, let key):
            return "\(path):\(line): unknown setting '\(key)'; allowed settings are \(SettingsTable.keyList)"
        case .duplicateKey(let path, let line, let key, let firstLine):
            return "\(path):\(line): '\(key)' is already set on line \(firstLine); keep one of them"
        case .badValue(let source, let key, let value, let allowed):
            return "\(source): bad value '\(value)' for \(key): expected \(allowed)"
        case .usage(let message):
            return "\(message) (see 'peershared --help')"
        }
    }
}
