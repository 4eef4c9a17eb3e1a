import ControlProtocol
import Glibc
import Support

/// The process at the other end of a Unix socket, as the kernel vouches for it.
///
/// Mirrors `struct ucred`, which Glibc's Swift module lacks (it needs `_GNU_SOURCE`); the
/// layout is three 32-bit fields: pid, uid, gid.
struct PeerCredentials: Sendable, Equatable {
    var pid: pid_t = 0
    var uid: uid_t = 0
    var gid: gid_t = 0

    /// `getsockopt(SO_PEERCRED)` on a connected Unix socket.
    static func of(_ fd: Int32) throws(SystemCallError) -> PeerCredentials {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            length == socklen_t(MemoryLayout<PeerCredentials>.size)
        else { throw SystemCallError("getsockopt(SO_PEERCRED)", "on the control socket") }
        return credentials
    }

    /// Only the daemon's own user may drive it: the socket is the user's whole library.
    func isAllowed(forDaemonUID daemonUID: uid_t) -> Bool {
        uid == daemonUID
    }
}
