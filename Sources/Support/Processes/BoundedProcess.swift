import Glibc

/// What a program run by `BoundedProcess` left: its exit, what it wrote, and whether it was
/// cut short.
public struct ProcessOutput: Sendable {
    /// The exit status, or 128 + the signal that ended it.
    public let status: Int32
    public let stdout: [UInt8]
    /// What it wrote on standard error, up to 4 KiB.
    public let stderr: String
    /// Killed at the deadline.
    public let timedOut: Bool
    /// Killed for writing more than it was allowed to.
    public let tooLarge: Bool
}

/// Runs a helper program to its end with its output captured, under a deadline and a cap on
/// what it may write: for work the daemon keeps out of its own address space (decoding
/// images with libvips), so that a crash, a hang or a flood there costs one job, not the
/// daemon.
///
/// Started with `posix_spawn` (Foundation's `Process` can crash its caller on Linux), standard
/// input from /dev/null, and waited for with `poll` on its pipes; the calling thread blocks.
public enum BoundedProcess {
    static let maximumStderrBytes = 4096

    public static func run(
        _ executable: String, _ arguments: [String], maxOutputBytes: Int, timeout: Duration
    ) throws(SystemCallError) -> ProcessOutput {
        var out: [Int32] = [0, 0]
        var err: [Int32] = [0, 0]
        guard pipe(&out) == 0 else { throw SystemCallError("pipe", executable) }
        guard pipe(&err) == 0 else {
            let error = SystemCallError("pipe", executable)
            close(out[0])
            close(out[1])
            throw error
        }
        // Not inherited by anything else this daemon starts meanwhile (the child gets them
        // through dup2, which clears the flag on its copies).
        for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, &argv, environ)
        close(out[1])
        close(err[1])
        defer {
            close(out[0])
            close(err[0])
        }
        guard spawned == 0 else { throw SystemCallError("posix_spawn", executable, code: spawned) }
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var open = [true, true]
        var (timedOut, tooLarge) = (false, false)
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 65536)
        while open.contains(true) && !timedOut && !tooLarge {
            let left = deadline - .now
            guard left > .zero else {
                timedOut = true
                break
            }
            let fds = [out[0], err[0]].enumerated().filter { open[$0.offset] }.map(\.element)
            let ready = Poll.readable(fds, timeout: left)
            for index in ready {
                let fd = fds[index]
                let count = read(fd, &buffer, buffer.count)
                if count <= 0 {
                    if count < 0 && errno == EINTR { continue }
                    open[fd == out[0] ? 0 : 1] = false
                } else if fd == out[0] {
                    stdout += buffer[0..<count]
                    tooLarge = stdout.count > maxOutputBytes
                } else if stderr.count < maximumStderrBytes {
                    stderr += buffer[0..<min(count, maximumStderrBytes - stderr.count)]
                }
            }
        }
        if timedOut || tooLarge { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exited = status & 0x7F == 0
        return ProcessOutput(
            status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), stdout: stdout,
            stderr: String(decoding: stderr, as: UTF8.self), timedOut: timedOut, tooLarge: tooLarge)
    }
}

/// The exit statuses of `peershare-thumbnailer`, which the daemon reads (from sysexits.h).
public enum ThumbnailerExit {
    /// The file is not an image thumbnails are made of, or it cannot be decoded.
    public static let notAnImage: Int32 = 65
    /// The file cannot be opened.
    public static let unreadable: Int32 = 66
    /// The image library could not start.
    public static let unavailable: Int32 = 69
    /// Wrong arguments.
    public static let usage: Int32 = 64
}
