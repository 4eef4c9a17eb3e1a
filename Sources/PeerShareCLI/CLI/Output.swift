import ControlProtocol
import Glibc

/// Writes to stdout and stderr directly (unbuffered), so streamed events reach a pipe at
/// once and nothing is lost when the process exits.
enum Output {
    static func out(_ text: String) {
        write(fd: 1, text.hasSuffix("\n") ? text : text + "\n")
    }

    static func err(_ text: String) {
        write(fd: 2, text.hasSuffix("\n") ? text : text + "\n")
    }

    /// Text on stderr exactly as given (no newline added), for a line redrawn in place.
    static func errRaw(_ text: String) {
        write(fd: 2, text)
    }

    /// One JSON value on one line of stdout.
    static func json(_ value: JSON) {
        out(JSONLine.string(value))
    }

    private static func write(fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            bytes = bytes.dropFirst(count)
        }
    }
}
