/// How much the daemon logs, and the journald priority each line carries.
///
/// The raw values are syslog priorities, which journald reads from a `<N>` line prefix.
enum LogLevel: Int, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case error = 3
    case warning = 4
    case info = 6
    case debug = 7

    init?(name: String) {
        guard let level = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = level
    }

    var description: String {
        switch self {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "info"
        case .debug: return "debug"
        }
    }

    /// `a < b` when `a` is more severe, so "log if level <= configured" reads naturally.
    static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}
