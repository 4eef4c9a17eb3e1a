import Foundation
import Glibc

/// A real executable run as a child process, with its stdout and stderr captured in files
/// of the test's directory (no pipes to fill up, and the files outlive a failure).
///
/// The environment is exactly what the test passes: tests run in parallel in one process,
/// so nothing is ever set in the test process's own environment.
///
/// Started with `posix_spawn` directly rather than Foundation's `Process`: on Linux,
/// `Process.run()` (Swift 6.3.1) intermittently crashes the whole test process with a
/// SIGSEGV, over-reading `struct dirent` while it lists /proc/self/fd
/// (swiftlang/swift-corelibs-foundation#5472), and these tests start hundreds of processes.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    public let stdoutPath: String
    public let stderrPath: String
    private let name: String
    private let lock = NSLock()
    /// The raw `waitpid` status once the child has been reaped.
    private var reaped: Int32?

    public init(
        executable: String, arguments: [String], environment: [String: String], directory: TestDirectory,
        label: String
    ) throws {
        stdoutPath = directory.file("\(label).stdout")
        stderrPath = directory.file("\(label).stderr")
        name = (executable as NSString).lastPathComponent
        for path in [stdoutPath, stderrPath] {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_TRUNC, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_TRUNC, 0)
        // The child gets stdin, stdout and stderr only: no socket or file of another test.
        try SpawnExtensions.closeFrom(3, &actions)
        try SpawnExtensions.changeDirectory(directory.path, &actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group (as Process did), no signal blocked or ignored.
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var child = pid_t()
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw HarnessError("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
    }

    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }

    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Whether the child has not exited yet (reaps it when it has).
    public var isRunning: Bool {
        lock.withLock {
            guard reaped == nil else { return false }
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { reaped = status }
            return reaped == nil
        }
    }

    /// Sends `signal`, unless the child has already been reaped (its PID may be reused).
    public func send(_ signal: Int32) {
        lock.withLock {
            if reaped == nil { kill(pid, signal) }
        }
    }

    /// Waits for the process to end and returns its exit status; a death by signal is a
    /// harness error that shows stderr.
    public func waitForExit(timeout: Duration = .seconds(20)) throws -> Int32 {
        try waitUntil("\(name) to exit", timeout: timeout) { !isRunning }
        let status = lock.withLock { reaped ?? 0 }
        let signal = status & 0x7F
        guard signal == 0 else { throw HarnessError("killed by signal \(signal); stderr:\n\(stderr)") }
        return (status >> 8) & 0xFF
    }
}

/// glibc's `posix_spawn` file actions that the Swift Glibc module does not import
/// (`_np`: glibc 2.29 and 2.34 and later), looked up at run time.
private enum SpawnExtensions {
    private typealias CloseFrom =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    private static func lookUp<T>(_ symbol: String, as type: T.Type) throws -> T {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) else {
            throw HarnessError("this C library lacks \(symbol) (glibc 2.34 or later is needed)")
        }
        return unsafeBitCast(address, to: type)
    }

    static func closeFrom(_ first: Int32, _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>) throws
    {
        let function = try lookUp("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self)
        guard function(actions, first) == 0 else { throw HarnessError("addclosefrom_np failed") }
    }

    static func changeDirectory(_ path: String, _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>)
        throws
    {
        let function = try lookUp("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self)
        guard function(actions, path) == 0 else { throw HarnessError("addchdir_np failed") }
    }
}
