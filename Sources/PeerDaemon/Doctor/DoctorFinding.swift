import ControlProtocol

/// One thing `doctor` found: which check, how bad, what it saw and what to do about it.
///
/// Why a value of its own: the checks are plain functions of what the daemon knows
/// (`DoctorFacts`), so each is tested on made-up facts, and the route, the CLI and scripts
/// all read the same four keys.
struct DoctorFinding: Sendable, Equatable {
    /// `ok`: nothing to do; `warning`: works, but may not for long or for everyone;
    /// `problem`: something does not work (`peershare doctor` then exits 1).
    enum Severity: String, Sendable {
        case ok, warning, problem
    }

    let check: String
    let severity: Severity
    let message: String
    /// What to do; nil for an `ok` finding.
    let fix: String?

    static func ok(_ check: String, _ message: String) -> DoctorFinding {
        DoctorFinding(check: check, severity: .ok, message: message, fix: nil)
    }

    static func warning(_ check: String, _ message: String, fix: String) -> DoctorFinding {
        DoctorFinding(check: check, severity: .warning, message: message, fix: fix)
    }

    static func problem(_ check: String, _ message: String, fix: String) -> DoctorFinding {
        DoctorFinding(check: check, severity: .problem, message: message, fix: fix)
    }

    /// `{"check", "severity", "message", "fix"}` (`fix` null when there is nothing to do).
    var json: JSON {
        [
            "check": .string(check), "severity": .string(severity.rawValue), "message": .string(message),
            "fix": fix.map(JSON.string) ?? .null,
        ]
    }
}
