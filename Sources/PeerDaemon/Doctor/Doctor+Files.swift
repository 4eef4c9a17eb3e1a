import Glibc

/// The state directory, the stores, the identity key and the control socket: who owns them
/// and who else may read them (directories 0700, files 0600, as `PrivateModes` makes them).
extension Doctor {
    static func files(_ facts: DoctorFacts) -> [DoctorFinding] {
        let check = "files"
        let root = facts.stateDirectory
        var findings: [DoctorFinding] = []
        var owners: [String] = []
        for path in [root, root + "/identity", root + "/library", facts.controlSocket] {
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if info.st_uid != facts.uid { owners.append("\(path) (uid \(info.st_uid))") }
        }
        if !owners.isEmpty {
            findings.append(
                .problem(
                    check,
                    "owned by another user than peershared's (uid \(facts.uid)): "
                        + owners.joined(separator: ", "),
                    fix: "give them back to the user peershared runs as: chown -R \(facts.uid) \(root)"))
        }
        let exposed = PrivateModes.exposed(root)
        if !exposed.isEmpty {
            let shown = exposed.prefix(5).map { "\($0) (\(mode(of: $0)))" }.joined(separator: ", ")
            let more = exposed.count > 5 ? " and \(exposed.count - 5) more" : ""
            findings.append(
                .problem(
                    check, "other users may read or enter: \(shown)\(more)",
                    fix: "chmod -R go-rwx \(root) (peershared also makes them private when it starts)"))
        }
        var socket = stat()
        if lstat(facts.controlSocket, &socket) != 0 || socket.st_mode & S_IFMT != S_IFSOCK {
            findings.append(
                .problem(
                    check,
                    "the control socket \(facts.controlSocket) is missing or not a socket: clients "
                        + "cannot reach this daemon", fix: "restart peershared, which makes it again"))
        } else if socket.st_mode & 0o077 != 0 {
            findings.append(
                .warning(
                    check,
                    "the control socket \(facts.controlSocket) has mode \(mode(of: facts.controlSocket)) "
                        + "(peershared still serves only its own user)",
                    fix: "chmod 600 \(facts.controlSocket)"))
        }
        guard findings.isEmpty else { return findings }
        return [
            .ok(
                check,
                "\(root) (identity, library) and the control socket are private to uid \(facts.uid): "
                    + "directories 0700, files 0600")
        ]
    }

    /// A file's permission bits in octal, as `ls -l` users know them (`0644`).
    static func mode(of path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0 else { return "?" }
        let bits = String(info.st_mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - bits.count)) + bits
    }
}
