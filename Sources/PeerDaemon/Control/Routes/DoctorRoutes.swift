import ControlProtocol
import FoundationEssentials
import Glibc

/// `doctor`: what may keep this daemon from working with its members, each finding with the
/// fix (SPEC §15).
extension ControlRoutes {
    mutating func registerDoctor(_ services: DaemonServices) {
        register(.doctor) { args in
            let facts = DoctorFacts.gather(services, environment: ProcessInfo.processInfo.environment)
            let findings = Doctor.findings(facts)
            let count = { (severity: DoctorFinding.Severity) in
                findings.filter { $0.severity == severity }.count
            }
            return [
                "findings": .array(findings.map(\.json)), "problems": .int(count(.problem)),
                "warnings": .int(count(.warning)),
            ]
        }
    }
}
