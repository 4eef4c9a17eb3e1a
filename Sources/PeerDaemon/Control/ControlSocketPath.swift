import ControlProtocol
import FoundationEssentials
import Glibc
import Support

/// Makes the control socket's path ready to bind: its directory exists, and whatever is
/// there is a stale socket (removed) or nothing.
///
/// Refuses to remove anything that is not a socket, and a socket another daemon still
/// answers on: deleting a user's file or stealing a live daemon's socket are both worse
/// than refusing to start.
enum ControlSocketPath {
    static func prepare(_ path: String, logger: Logger) throws(DaemonError) {
        guard path.utf8.count <= UnixSocket.maxPathBytes else { throw .controlSocketPathTooLong(path) }
        let directory = FilePaths.parent(of: path)
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .controlSocket(SystemCallError("mkdir", directory, code: EACCES))
        }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return }
            throw .controlSocket(SystemCallError("lstat", path))
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else { throw .controlSocketNotASocket(path) }
        if let fd = try? UnixSocket.connect(path: path) {
            close(fd)
            throw .controlSocketInUse(path)
        }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .controlSocket(SystemCallError("unlink", path))
        }
        logger.info("removed a stale control socket left by an earlier run", ["path": path])
    }

    /// The device and inode of the file at `path`, to tell later whether it is still ours.
    static func identity(of path: String) -> (dev_t, ino_t)? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return (status.st_dev, status.st_ino)
    }
}
