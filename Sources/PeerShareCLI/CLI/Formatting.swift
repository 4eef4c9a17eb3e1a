import ControlProtocol

/// Small helpers formatters share, so every command prints results the same way.
enum Formatting {
    /// Aligned `label  value` lines.
    static func table(_ rows: [(String, String)]) -> String {
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        return rows.map { $0.0.padded(to: width) + $0.1 }.joined(separator: "\n")
    }

    /// The first 8 characters of an ID: unique in practice, and accepted back as a prefix.
    static func shortID(_ id: String) -> String { String(id.prefix(8)) }

    /// `1 photo`, `3 photos`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// A JSON value as people read it: strings bare, everything else compact JSON.
    static func text(_ value: JSON?) -> String {
        guard let value else { return "-" }
        if let string = value.stringValue { return string }
        if value == .null { return "-" }
        return JSONLine.string(value)
    }

    /// Seconds as `1d 2h 3m 4s`, dropping leading zero units.
    static func duration(seconds: Double) -> String {
        var remaining = Int(seconds)
        let units = [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)]
        var parts: [String] = []
        for (suffix, size) in units where remaining >= size || (suffix == "s" && parts.isEmpty) {
            parts.append("\(remaining / size)\(suffix)")
            remaining %= size
        }
        return parts.joined(separator: " ")
    }

    /// An event as one line: `TIME TYPE key=value …`.
    static func event(_ event: ControlEvent) -> String {
        var line = "\(event.json["time"]?.stringValue ?? "") \(event.type)"
        for (key, value) in (event.data.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(text(value))"
        }
        return line
    }
}
