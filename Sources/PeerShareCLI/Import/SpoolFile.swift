import Glibc

/// A private temporary file (mode 0600) through which photo data passes between standard
/// input or output and the daemon, which reads and writes only files it is named.
///
/// It lives beside the control socket first: the daemon can reach that directory (it made
/// the socket there) even when it runs sandboxed with a private /tmp; else in /tmp. The
/// file is removed when the command is done, and on Ctrl-C (see `StreamInterrupter`).
final class SpoolFile {
    let path: String
    private(set) var fd: Int32

    init(near socket: String, purpose: String) throws(CLIError) {
        let socketDirectory = socket.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        var lastError = ""
        for directory in [socketDirectory, "/tmp"] where !directory.isEmpty {
            var template = Array("\(directory)/.peershare-\(purpose)-XXXXXX".utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if fd >= 0 {
                fchmod(fd, 0o600)
                self.fd = fd
                self.path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                StreamInterrupter.shared.removeOnInterrupt(path)
                return
            }
            lastError = "\(directory): \(String(cString: strerror(errno)))"
        }
        throw .local("cannot create a temporary file for standard input or output (\(lastError))")
    }

    /// Copies everything from `source` (standard input) into the file; returns the byte count.
    func fill(from source: Int32) throws(CLIError) -> Int64 {
        var total: Int64 = 0
        try Self.pump(from: source, to: fd) { total += Int64($0) }
        return total
    }

    /// Copies the file (as the daemon left it at `path`) to `destination` (standard output).
    func drain(to destination: Int32) throws(CLIError) {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .local("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(input) }
        try Self.pump(from: input, to: destination) { _ in }
    }

    func remove() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        unlink(path)
        StreamInterrupter.shared.removeOnInterrupt(nil)
    }

    deinit { remove() }

    private static func pump(from input: Int32, to output: Int32, counted: (Int) -> Void) throws(CLIError) {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .local("reading failed: \(String(cString: strerror(errno)))") }
            if count == 0 { return }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes {
                    write(output, $0.baseAddress! + offset, count - offset)
                }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw .local("writing failed: \(String(cString: strerror(errno)))") }
                offset += written
            }
            counted(count)
        }
    }
}
