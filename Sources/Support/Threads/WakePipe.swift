import Glibc

/// A pipe that wakes a thread blocked in `poll`: `wake()` makes `fd` readable until
/// `drain()` empties it.
///
/// Both ends are non-blocking and close-on-exec, so waking never blocks the waker (a pipe
/// that is already full is already readable). Failing to make one (no descriptor left)
/// stops the process.
public final class WakePipe: Sendable {
    public let fd: Int32
    private let writeFD: Int32

    public init() {
        var ends: [Int32] = [0, 0]
        // Glibc's Swift module has no pipe2 (it needs _GNU_SOURCE): set the flags after.
        guard pipe(&ends) == 0 else {
            fatalError("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        fd = ends[0]
        writeFD = ends[1]
    }

    deinit {
        close(fd)
        close(writeFD)
    }

    public func wake() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }
}
