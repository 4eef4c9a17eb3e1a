/// `doctor`'s checks: each reads the facts and says what it found, with the fix.
///
/// Findings come in a fixed order (addresses, reachability, clocks, files, ports, disk, the
/// service), so that output is comparable between runs.
enum Doctor {
    static func findings(_ facts: DoctorFacts) -> [DoctorFinding] {
        addresses(facts) + reachability(facts) + clocks(facts) + files(facts) + ports(facts) + disk(facts)
            + service(facts)
    }

    /// Milliseconds as people read them: "850 ms", "12 s", "3 min", "2 h".
    static func describe(milliseconds: UInt64) -> String {
        switch milliseconds {
        case ..<1000: return "\(milliseconds) ms"
        case ..<120_000: return "\(milliseconds / 1000) s"
        case ..<7_200_000: return "\(milliseconds / 60_000) min"
        default: return "\(milliseconds / 3_600_000) h"
        }
    }
}
