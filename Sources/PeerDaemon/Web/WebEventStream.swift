import ControlProtocol
import FoundationEssentials
import Glibc
import Support
import Synchronization

/// The gallery's live updates: the daemon's events (the same `watch` streams) as
/// server-sent events, read by libmicrohttpd on the connection's own thread.
///
/// `read` blocks until an event arrives, a keep-alive is due, or the server stops. A browser
/// that reads too slowly loses its subscription and the stream ends; `EventSource`
/// reconnects and the page reloads what it shows, so nothing is missed for long.
final class WebEventStream: Sendable {
    static let keepAlive = Duration.seconds(15)

    private let subscription: EventSubscription
    private let stop: StopSignal
    /// Bytes formatted but not yet handed to the server (a reader's buffer may be small).
    private let pending = Mutex<[UInt8]>(Array("retry: 2000\n\n".utf8))

    init(bus: EventBus, stop: StopSignal) {
        self.subscription = bus.subscribe(capacity: 1024)
        self.stop = stop
    }

    /// Fills `buffer` with the next bytes of the stream; nil at its end.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while pending.withLock({ $0.isEmpty }) {
            if stop.isFired { return nil }
            let ready = Poll.readable([subscription.fd, stop.fd], timeout: Self.keepAlive)
            if ready.contains(1) || stop.isFired { return nil }
            guard ready.contains(0) else {
                pending.withLock { $0 = Array(": keep-alive\n\n".utf8) }
                continue
            }
            let (events, overflowed) = subscription.take()
            if overflowed { return nil }
            let text = events.map { "event: \($0.type)\ndata: \(JSONLine.string($0.json))\n\n" }.joined()
            pending.withLock { $0 = Array(text.utf8) }
        }
        return pending.withLock { bytes in
            let count = min(bytes.count, buffer.count)
            buffer.copyBytes(from: bytes[0..<count])
            bytes.removeFirst(count)
            return count
        }
    }

    /// Ends the subscription (the browser left, or the server stopped).
    func close() {
        subscription.cancel()
    }
}
