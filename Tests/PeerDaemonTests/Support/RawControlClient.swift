import ControlProtocol
import Foundation
import Glibc
import TestSupport

/// A bare connection to the control socket for tests that must send what no well-behaved
/// client would: garbage, unknown commands, over-long lines.
final class RawControlClient: @unchecked Sendable {
    private let socket: LineSocket

    init(path: String) throws {
        socket = LineSocket(fd: try UnixSocket.connect(path: path), maxLineBytes: 16 << 20)
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(socket.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends `text` followed by a newline.
    func send(_ text: String) throws {
        try socket.write(Data((text + "\n").utf8))
    }

    /// Reads one line as JSON (fails after 20 s or at end of stream).
    func readJSON() throws -> JSON {
        guard case .line(let line) = socket.readLine() else { throw HarnessError("no line from the daemon") }
        guard let value = JSONLine.decode(line) else {
            throw HarnessError("not JSON: \(String(decoding: line, as: UTF8.self))")
        }
        return value
    }

    /// Sends `text` as it is: part of a line, say.
    func sendWithoutNewline(_ text: String) throws {
        try socket.write(Data(text.utf8))
    }

    /// Sends one line and reads the answer.
    func request(_ text: String) throws -> JSON {
        try send(text)
        return try readJSON()
    }

    /// True when the daemon has closed the connection (end of stream within 20 s).
    func readsEndOfStream() -> Bool {
        socket.readLine() == .end
    }
}
