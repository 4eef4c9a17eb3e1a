/// Parses and prints byte counts in settings (`1048576`, `64KiB`, `16MiB`, `4GiB`).
///
/// Binary units only, so "1MiB" in the sample config means exactly what the code uses.
enum ByteCount {
    static let expected = "a byte count such as 65536, 64KiB, 16MiB or 4GiB"

    /// Largest first, so `format` picks the largest exact unit.
    private static let units: [(suffix: String, shift: Int)] = [
        ("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10),
    ]

    static func parse(_ text: String) -> Int? {
        var digits = Substring(text)
        var shift = 0
        if let unit = units.first(where: { digits.hasSuffix($0.suffix) }) {
            digits = digits.dropLast(unit.suffix.count)
            shift = unit.shift
        }
        while digits.hasSuffix(" ") { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let value = Int(digits), value <= Int.max >> shift
        else { return nil }
        return value << shift
    }

    /// The largest exact unit: 1048576 → "1MiB", 1000 → "1000".
    static func format(_ value: Int) -> String {
        for unit in units where value != 0 && value % (1 << unit.shift) == 0 {
            return "\(value >> unit.shift)\(unit.suffix)"
        }
        return "\(value)"
    }
}
