import Foundation
import Glibc
import TestSupport

/// A small tmpfs mounted for one test, to fill a disk for real. Mounting needs root (or
/// CAP_SYS_ADMIN); `isAvailable` probes once so tests that need one are skipped elsewhere.
final class TmpfsMount: @unchecked Sendable {
    let path: String

    /// Mounts a tmpfs of `size` (such as `1m`) at `path`, creating the directory.
    init(at path: String, size: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(size),mode=0700") == 0 else {
            throw HarnessError("cannot mount a tmpfs at \(path): \(String(cString: strerror(errno)))")
        }
        self.path = path
    }

    deinit {
        // Lazy: a daemon still dying must not keep the mount alive.
        umount2(path, Int32(MNT_DETACH))
    }

    /// Whether this process may mount a tmpfs (tried once, on a scratch directory).
    static let isAvailable: Bool = {
        guard let directory = try? TestDirectory() else { return false }
        return (try? TmpfsMount(at: directory.file("probe"), size: "64k")) != nil
    }()
}
