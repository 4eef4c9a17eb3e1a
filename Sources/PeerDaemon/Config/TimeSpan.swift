/// Parses and prints durations in settings (`10s`, `500ms`, `2m`).
///
/// A unit is required, so "10" never leaves the reader guessing between seconds and
/// milliseconds.
enum TimeSpan {
    static let expected = "a duration such as 500ms, 10s or 2m"

    /// Longest suffix first, so "ms" is not read as "s".
    private static let units: [(suffix: String, milliseconds: Int)] = [
        ("ms", 1), ("s", 1000), ("m", 60_000),
    ]

    static func parse(_ text: String) -> Duration? {
        guard let unit = units.first(where: { text.hasSuffix($0.suffix) }) else { return nil }
        var digits = Substring(text).dropLast(unit.suffix.count)
        while digits.hasSuffix(" ") { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let value = Int(digits)
        else { return nil }
        return .milliseconds(value * unit.milliseconds)
    }

    /// The largest exact unit: 10 000 ms → "10s", 1 500 ms → "1500ms".
    static func format(_ duration: Duration) -> String {
        let milliseconds =
            Int(duration.components.seconds) * 1000
            + Int(duration.components.attoseconds / 1_000_000_000_000_000)
        for unit in units.reversed() where milliseconds != 0 && milliseconds % unit.milliseconds == 0 {
            return "\(milliseconds / unit.milliseconds)\(unit.suffix)"
        }
        return "\(milliseconds)ms"
    }
}
