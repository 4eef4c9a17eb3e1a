/// Splits a byte stream into newline-terminated lines, refusing any line longer than a cap.
///
/// Pure (no I/O) so framing is tested by feeding input in arbitrary chunk sizes; both the
/// daemon and the CLI read the socket through it. A trailing `\r` is dropped so that lines
/// typed through `socat` or `nc -C` work.
public struct LineBuffer: Sendable {
    /// What `nextLine()` found.
    public enum Next: Sendable, Hashable {
        case line([UInt8])
        /// The current line already exceeds the cap; the stream cannot be resynchronised.
        case tooLong
    }

    public let maxLineBytes: Int
    private var bytes: [UInt8] = []
    private var start = 0
    private var scanned = 0

    public init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// Bytes received but not yet returned as a line.
    public var pendingByteCount: Int { bytes.count - start }

    /// Adds bytes read from the stream.
    public mutating func append(_ chunk: some Sequence<UInt8>) {
        bytes.append(contentsOf: chunk)
    }

    /// The next complete line, `.tooLong`, or nil when more bytes are needed.
    public mutating func nextLine() -> Next? {
        guard let newline = bytes[scanned...].firstIndex(of: 0x0A) else {
            scanned = bytes.count
            return pendingByteCount > maxLineBytes ? .tooLong : nil
        }
        var end = newline
        if end > start && bytes[end - 1] == 0x0D { end -= 1 }
        let line = Array(bytes[start..<end])
        start = newline + 1
        scanned = start
        compactIfWorthIt()
        return line.count > maxLineBytes ? .tooLong : .line(line)
    }

    /// Drops consumed bytes once they are at least half the storage, keeping appends cheap.
    private mutating func compactIfWorthIt() {
        guard start > 0, start * 2 >= bytes.count else { return }
        bytes.removeFirst(start)
        scanned -= start
        start = 0
    }
}
