import ControlProtocol

/// `doctor`: one line per finding, with a mark and the fix; exit status 1 when any is a
/// problem.
enum DoctorCommands {
    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["doctor"],
            summary: "check addresses, reachability, clocks, file modes, ports, disk space and the service; "
                + "exits 1 on a problem",
            request: .doctor, mode: .call(format: report),
            fails: { ($0["problems"]?.intValue ?? 0) > 0 })
    ]

    /// `ok       advertise  advertises 192.0.2.7:7733`, and for the others the fix on the
    /// line after: `         fix: set advertise = …`.
    static func report(_ result: JSON) -> String {
        let findings = result["findings"]?.arrayValue ?? []
        let width = findings.map { Formatting.text($0["check"]).count }.max() ?? 0
        var lines = findings.map { finding in
            let severity = Formatting.text(finding["severity"])
            let check = Formatting.text(finding["check"])
            let mark = ["ok": "ok     ", "warning": "warning", "problem": "PROBLEM"][severity] ?? severity
            var line = "\(mark)  \(check.padding(width))  \(Formatting.text(finding["message"]))"
            if let fix = finding["fix"]?.stringValue {
                line += "\n" + String(repeating: " ", count: 11 + width) + "fix: \(fix)"
            }
            return line
        }
        let problems = result["problems"]?.intValue ?? 0
        let warnings = result["warnings"]?.intValue ?? 0
        lines.append("\(problems) problem(s), \(warnings) warning(s)")
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
