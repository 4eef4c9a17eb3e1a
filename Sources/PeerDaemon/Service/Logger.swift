import Glibc
import Synchronization

/// Writes log lines to stderr with journald priority prefixes (`<3>` error … `<7>` debug).
///
/// A value passed in, never a global (as swift-log): each component gets a copy with its
/// own metadata (`peer`, `zone`, `connection`). All copies share one `LogSink`, so a SIGHUP
/// that changes the level reaches every one of them.
struct Logger: Sendable {
    private let sink: LogSink
    private(set) var metadata: [String: String]

    init(sink: LogSink, metadata: [String: String] = [:]) {
        self.sink = sink
        self.metadata = metadata
    }

    /// A copy that adds `key=value` to every line.
    func with(_ key: String, _ value: String) -> Logger {
        var copy = self
        copy.metadata[key] = value
        return copy
    }

    /// The level in force now.
    var level: LogLevel { sink.level }

    func error(_ message: @autoclosure () -> String, _ metadata: [String: String] = [:]) {
        log(.error, message(), metadata)
    }

    func warning(_ message: @autoclosure () -> String, _ metadata: [String: String] = [:]) {
        log(.warning, message(), metadata)
    }

    func info(_ message: @autoclosure () -> String, _ metadata: [String: String] = [:]) {
        log(.info, message(), metadata)
    }

    func debug(_ message: @autoclosure () -> String, _ metadata: [String: String] = [:]) {
        log(.debug, message(), metadata)
    }

    func log(_ level: LogLevel, _ message: @autoclosure () -> String, _ metadata: [String: String] = [:]) {
        guard level <= sink.level else { return }
        let merged = self.metadata.merging(metadata) { _, new in new }
        sink.write(LogLine.format(level: level, message: message(), metadata: merged))
    }
}

/// Where log lines go, and the level that filters them; shared by every `Logger` copy.
final class LogSink: Sendable {
    private let state: Mutex<LogLevel>
    private let fd: Int32

    init(level: LogLevel, fd: Int32 = 2) {
        self.state = Mutex(level)
        self.fd = fd
    }

    var level: LogLevel {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    /// Writes one line with one `write`, under the lock, so lines from threads never mix.
    func write(_ line: String) {
        state.withLock { _ in
            var bytes = Array(line.utf8)
            bytes.append(0x0A)
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes {
                    Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset)
                }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                offset += count
            }
        }
    }
}

/// The text of one log line: `<6>message key=value …`, metadata sorted by key.
enum LogLine {
    static func format(level: LogLevel, message: String, metadata: [String: String]) -> String {
        var line = "<\(level.rawValue)>" + message.replacingNewlines()
        for key in metadata.keys.sorted() {
            line += " \(key)=\(quoted(metadata[key] ?? ""))"
        }
        return line
    }

    /// Quotes values with spaces, quotes or `=` so a line stays machine-splittable.
    private static func quoted(_ value: String) -> String {
        let plain = !value.isEmpty && !value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" })
        if plain { return value.replacingNewlines() }
        return "\"" + value.replacingNewlines().replacing("\"", with: "\\\"") + "\""
    }
}

extension String {
    /// One log line must stay one line, whatever a message or value contains.
    fileprivate func replacingNewlines() -> String {
        contains(where: \.isNewline) ? replacing("\n", with: "\\n").replacing("\r", with: "\\r") : self
    }
}
