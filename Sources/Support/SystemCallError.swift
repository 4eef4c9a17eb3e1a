import Glibc

/// A failed system call: which operation, on what, and the errno.
///
/// Keeps `errno` next to the operation and path so callers can tell "not running"
/// (ENOENT, ECONNREFUSED) from "not allowed" (EACCES) and say something useful.
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    public let operation: String
    public let subject: String
    public let code: Int32

    public init(_ operation: String, _ subject: String, code: Int32 = errno) {
        self.operation = operation
        self.subject = subject
        self.code = code
    }

    /// The C library's text for the errno, such as "No such file or directory".
    public var reason: String { String(cString: strerror(code)) }

    public var description: String { "\(operation) \(subject): \(reason)" }
}
