import ControlProtocol
import Support

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

    /// A byte count with a binary unit and one decimal: `512 B`, `1.5 KiB`, `12.0 MiB`.
    static func bytes(_ count: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard count >= 1024 else { return "\(count) B" }
        var unit = 0
        var scale = 1024
        while unit < units.count - 1 && count >= scale * 1024 {
            unit += 1
            scale *= 1024
        }
        let tenths = (count * 10 + scale / 2) / scale
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// Rows under a header, each column as wide as its widest cell (the last unpadded).
    static func columns(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padded(to: widths[column] + 2)
            }.joined()
        }.joined(separator: "\n")
    }

    /// An ID shortened part by part: `1b2c3d4e` or, for a photo–tag link, `1b2c3d4e/5d6e7f80`.
    static func shortIDs(_ id: String) -> String {
        id.split(separator: "/", omittingEmptySubsequences: false).map { shortID(String($0)) }.joined(
            separator: "/")
    }

    /// A JSON value as people read it: strings bare, everything else compact JSON.
    static func text(_ value: JSON?) -> String {
        guard let value else { return "-" }
        if let string = value.stringValue { return string }
        if value == .null { return "-" }
        return JSONLine.string(value)
    }

    /// A display name a peer gave itself, safe to print: nil when there is none, control and
    /// invisible characters shown as `?` (a name could otherwise drive the terminal).
    static func name(_ value: JSON?) -> String? {
        guard let name = value?.stringValue, !name.isEmpty else { return nil }
        return String(
            String.UnicodeScalarView(name.unicodeScalars.map { PrintableText.isPrintable($0) ? $0 : "?" }))
    }

    /// Who a device is, by the names its person's list gives: "Bob (laptop)", "Bob",
    /// "laptop", or "-" with neither.
    static func who(person: JSON?, device: JSON?) -> String {
        switch (name(person), name(device)) {
        case (let person?, let device?): "\(person) (\(device))"
        case (let person?, nil): person
        case (nil, let device?): device
        case (nil, nil): "-"
        }
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
