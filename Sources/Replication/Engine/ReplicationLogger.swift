import Store

/// Where replication writes its log lines: a value passed in, never a global, so the daemon
/// routes them to its own logger and tests capture them.
///
/// Each record carries the peer it is about (as metadata, not pasted into the text), so a
/// log reader can filter by peer. Photo bytes, keys and tokens never appear in a message.
public struct ReplicationLogger: Sendable {
    /// One log line.
    public struct Record: Sendable {
        public let level: SessionLogLevel
        public let message: String
        public let peer: PeerID?
    }

    public let minimumLevel: SessionLogLevel
    private let sink: @Sendable (Record) -> Void

    public init(minimumLevel: SessionLogLevel = .info, sink: @escaping @Sendable (Record) -> Void) {
        self.minimumLevel = minimumLevel
        self.sink = sink
    }

    /// Drops everything.
    public static let discard = ReplicationLogger(minimumLevel: .error) { _ in }

    public func log(_ level: SessionLogLevel, _ message: @autoclosure () -> String, peer: PeerID? = nil) {
        guard level >= minimumLevel else { return }
        sink(Record(level: level, message: message(), peer: peer))
    }
}
