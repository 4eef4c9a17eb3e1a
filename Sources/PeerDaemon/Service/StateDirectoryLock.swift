import ControlProtocol
import FoundationEssentials
import Glibc
import Support

/// An exclusive `flock` on `STATE_DIR/peershared.lock`, held for the daemon's lifetime.
///
/// Two daemons on one state directory would corrupt each other's stores; the second one
/// refuses to start and says which pid holds the lock. The kernel drops the lock when the
/// holder exits, however it exits, so a crash never leaves a stale lock.
final class StateDirectoryLock: Sendable {
    let path: String
    private let fd: Int32

    /// Takes the lock and writes our pid into the file.
    init(stateDirectory: String) throws(DaemonError) {
        path = stateDirectory + "/peershared.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .stateDirectory(SystemCallError("open", path)) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.readPID(fd)
            close(fd)
            throw .lockHeld(stateDirectory: stateDirectory, pid: holder)
        }
        ftruncate(fd, 0)
        let text = Array("\(getpid())\n".utf8)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        self.fd = fd
    }

    /// Releases the lock (the file stays: removing it would race with a starting daemon).
    func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }

    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self)
        return Int32(text.trimmingWhitespace())
    }
}
