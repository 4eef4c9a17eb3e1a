import Glibc

/// Ports, disk space and the service manager.
extension Doctor {
    static func ports(_ facts: DoctorFacts) -> [DoctorFinding] {
        [
            .ok(
                "ports",
                "peer connections on \(facts.listen) (TCP port \(facts.listen.port)); control socket at "
                    + facts.controlSocket)
        ]
    }

    /// Free space on the state directory's file system, against `doctor_min_free_bytes`.
    static func disk(_ facts: DoctorFacts) -> [DoctorFinding] {
        let check = "disk"
        var info = statvfs()
        guard statvfs(facts.stateDirectory, &info) == 0 else {
            let why = String(cString: strerror(errno))
            return [
                .warning(
                    check, "cannot read the free space of \(facts.stateDirectory): \(why)",
                    fix: "check that the state directory exists and is readable")
            ]
        }
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        let message =
            "\(bytes(free)) free on the file system of \(facts.stateDirectory) (doctor_min_free_bytes: "
            + "\(bytes(facts.minFreeBytes)))"
        guard free >= facts.minFreeBytes else {
            return [
                .warning(
                    check, message,
                    fix:
                        "free space there, or move state_dir to a larger file system; a full disk refuses new "
                        + "photos and data from peers")
            ]
        }
        return [.ok(check, message)]
    }

    /// Whether a systemd unit runs this daemon with the state directory it should, and
    /// whether a library waits in another known place.
    static func service(_ facts: DoctorFacts) -> [DoctorFinding] {
        let check = "service"
        let locations = LibraryLocations(environment: facts.environment)
        let expected = locations.expectedUnitStateDirectory
        var findings: [DoctorFinding] = []
        if facts.environment["INVOCATION_ID"] != nil {
            if canonical(facts.stateDirectory) == canonical(expected) {
                findings.append(.ok(check, "runs under systemd with state in \(facts.stateDirectory)"))
            } else {
                findings.append(
                    .warning(
                        check, "runs under systemd with state in \(facts.stateDirectory), not \(expected)",
                        fix: "start peershared in the unit with --state-dir=%h/.local/state/peershare (the "
                            + "unit shipped in systemd/ does), moving the library there first if it is yours")
                )
            }
        } else {
            let notify = facts.environment["NOTIFY_SOCKET"] != nil ? " (a NOTIFY_SOCKET is set)" : ""
            findings.append(.ok(check, "not started by systemd (no INVOCATION_ID)\(notify)"))
        }
        let others = locations.known.filter {
            canonical($0) != canonical(facts.stateDirectory) && LibraryLocations.holdsLibrary($0)
        }
        for other in others {
            findings.append(
                .warning(
                    check,
                    "another PeerShare library is in \(other); this daemon uses \(facts.stateDirectory)",
                    fix:
                        "if \(other) holds your photos, stop peershared and start it with --state-dir \(other) "
                        + "(or move it to \(facts.stateDirectory)); else remove it"))
        }
        return findings
    }

    private static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A byte count in binary units, as settings write them (`1.5 GiB`).
    static func bytes(_ count: Int) -> String {
        let units = [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)]
        for (suffix, shift) in units where count >= 1 << shift {
            let value = Double(count) / Double(1 << shift)
            return "\((value * 10).rounded() / 10) \(suffix)"
        }
        return "\(count) bytes"
    }
}
