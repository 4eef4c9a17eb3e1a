import FoundationEssentials
import Glibc
import Support

/// A connected stream socket read and written as lines.
///
/// Owns the descriptor. Reading is split into "is a whole line buffered?" and "read what is
/// available" so the caller decides how to wait (the daemon polls on a stop signal too).
public final class LineSocket {
    /// What reading produced.
    public enum Read: Sendable, Hashable {
        case line(Data)
        case tooLong
        /// The peer closed its end (or the connection broke) with no complete line pending.
        case end
    }

    public let fd: Int32
    private var buffer: LineBuffer
    private var closed = false

    /// Takes ownership of `fd`.
    public init(fd: Int32, maxLineBytes: Int) {
        self.fd = fd
        self.buffer = LineBuffer(maxLineBytes: maxLineBytes)
    }

    deinit { close() }

    /// The longest line `readLine()` accepts.
    public var maxLineBytes: Int { buffer.maxLineBytes }

    /// A line (or `.tooLong`) already received, without reading the socket.
    public func bufferedLine() -> Read? {
        switch buffer.nextLine() {
        case .line(let bytes)?: return .line(Data(bytes))
        case .tooLong?: return .tooLong
        case nil: return nil
        }
    }

    /// Reads once from the socket (blocking if nothing is available); false on end of
    /// stream or a broken connection.
    public func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(chunk[0..<count])
                return true
            }
            if count < 0 && errno == EINTR { continue }
            return false
        }
    }

    /// Waits until the socket has something to read (or has hung up); false when `deadline`
    /// passed first.
    public func waitReadable(until deadline: ContinuousClock.Instant) -> Bool {
        Poll.wait(fd: fd, events: Int32(POLLIN), until: deadline) != .timedOut
    }

    /// Blocks until a line arrives, the line grows too long, or the stream ends.
    public func readLine() -> Read {
        while true {
            if let ready = bufferedLine() { return ready }
            guard fill() else { return .end }
        }
    }

    /// Writes every byte of `data`, or throws.
    public func write(_ data: Data) throws(SystemCallError) {
        var sent = 0
        while sent < data.count {
            let count = data.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError("write", "to the control socket")
            }
            sent += count
        }
    }

    /// Writes `value` as one line.
    public func write(_ value: JSON) throws(SystemCallError) {
        try write(JSONLine.encode(value))
    }

    /// Writes `value` as one line if the socket takes it at once, never blocking: for a
    /// last word to a client that may not be reading (a refusal, an idle connection's
    /// close). A client that does not read simply misses it.
    public func writeWithoutWaiting(_ value: JSON) {
        let data = JSONLine.encode(value)
        _ = data.withUnsafeBytes { raw in
            send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
        }
    }

    /// Closes after a final message without losing it: stops writing, then reads and
    /// drops what the peer still sends for up to `timeoutMilliseconds`, then closes.
    ///
    /// Closing a Unix or TCP socket with unread input resets the connection, and the peer
    /// then sees the reset instead of the error line it was just sent.
    public func closeAfterDraining(timeoutMilliseconds: Int = 1000) {
        guard !closed else { return }
        shutdown(fd, Int32(SHUT_WR))
        let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
        var scratch = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < deadline {
            guard Poll.wait(fd: fd, events: Int32(POLLIN), until: deadline) == .ready else { break }
            let count = scratch.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 && !(count < 0 && errno == EINTR) { break }
        }
        close()
    }

    /// Releases the descriptor; later calls do nothing.
    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }
}
