import Glibc

/// Makes everything under the state directory private to its user: files mode 0600,
/// directories 0700.
///
/// The stores, their `-wal` and `-shm` files, the photo data and the keys are created
/// private (the daemon runs with umask 0077 and the stores create their files 0600), but a
/// library made by an earlier version, or copied in by hand, may hold 0644 files. Run at
/// start-up, before anything is opened; links are not followed and sockets are left alone.
enum PrivateModes {
    static let file: mode_t = 0o600
    static let directory: mode_t = 0o700

    /// Gives every file and directory under `root` (and `root` itself) that other users
    /// could read, write or enter the private mode; returns the paths it changed. Unreadable entries are skipped: opening
    /// them later fails with a message of its own.
    static func tighten(_ root: String) -> [String] {
        var changed: [String] = []
        walk(root, tightening: true, found: &changed)
        return changed
    }

    /// The files and directories under `root` (and `root` itself) that other users could
    /// read, write or enter, left as they are: what `doctor` reports.
    static func exposed(_ root: String) -> [String] {
        var found: [String] = []
        walk(root, tightening: false, found: &found)
        return found
    }

    private static func walk(_ path: String, tightening: Bool, found changed: inout [String]) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        let type = info.st_mode & S_IFMT
        let wanted: mode_t
        switch type {
        case S_IFREG: wanted = file
        case S_IFDIR: wanted = directory
        default: return
        }
        if info.st_mode & 0o077 != 0, !tightening || chmod(path, wanted) == 0 {
            changed.append(path)
        }
        guard type == S_IFDIR, let stream = opendir(path) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            walk(path + "/" + name, tightening: tightening, found: &changed)
        }
    }
}
