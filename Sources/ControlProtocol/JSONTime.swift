import FoundationEssentials

/// How every time appears in the control protocol's JSON: an ISO 8601 UTC string with
/// milliseconds (`2026-11-29T11:59:37.848Z`), SPEC §9.
///
/// One helper for every route, event and the CLI that reads them back, so no command gives
/// a time in another form (durations are numbers with their unit in the key's name, as
/// `uptime_seconds`).
public enum JSONTime {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `date` as ISO 8601 UTC with milliseconds.
    public static func string(_ date: Date) -> String { date.formatted(style) }

    /// Milliseconds since 1970 (how the stores and the engine keep times) as a JSON time.
    public static func json(milliseconds: Int64) -> JSON {
        .string(string(Date(timeIntervalSince1970: Double(milliseconds) / 1000)))
    }

    /// An optional time in milliseconds, `null` when absent.
    public static func json(milliseconds: UInt64?) -> JSON {
        milliseconds.map { json(milliseconds: Int64(clamping: $0)) } ?? .null
    }

    /// A JSON time read back; nil when it is not one.
    public static func date(_ text: String) -> Date? { try? style.parse(text) }
}
