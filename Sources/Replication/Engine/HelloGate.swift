import Glibc
import Support
import Synchronization

/// Where an accepted socket waits for its first TLS record, the ClientHello, to have fully
/// arrived before it takes a handshake slot (`max_incoming_handshakes`) and a thread.
///
/// A peer sends its ClientHello at once, in one record of a few hundred bytes, so it passes
/// straight through. A connection that sends nothing, or half a ClientHello and then
/// nothing, waits here at the cost of a descriptor: one thread polls all of them (the
/// kernel wakes it only once the whole record is there, `SO_RCVLOWAT`), so holding a
/// thousand such connections takes no handshake slot from real peers (before, 32 of them
/// kept every peer out). Bytes that are not a TLS handshake record end the connection at
/// once; one still waiting after `timeout` is closed; and over `capacity`, the oldest goes.
final class HelloGate: Sendable {
    let capacity: Int
    let timeout: Duration
    private let pending = Mutex<[Int32: Waiting]>([:])
    private let wake = WakePipe()
    private let stop = StopSignal()
    private let onReady: @Sendable (TCPSocket, ContinuousClock.Instant) -> Void
    private let onDropped: @Sendable (String) -> Void
    private let thread = Mutex<IOThread?>(nil)

    private struct Waiting: Sendable {
        let socket: TCPSocket
        let connectedAt: ContinuousClock.Instant
    }

    /// The longest first record taken: a TLS record is at most 16 KiB of plaintext (the
    /// ClientHello is never encrypted), and a few bytes more are allowed for its header.
    static let maximumRecordBytes = 16 * 1024 + 256

    /// `POLLRDHUP`: the peer shut its side (Linux; Glibc's module lacks it without _GNU_SOURCE).
    private static let readHangUp: Int16 = 0x2000

    init(
        capacity: Int, timeout: Duration,
        onReady: @escaping @Sendable (TCPSocket, ContinuousClock.Instant) -> Void,
        onDropped: @escaping @Sendable (String) -> Void
    ) {
        self.capacity = max(1, capacity)
        self.timeout = timeout
        self.onReady = onReady
        self.onDropped = onDropped
    }

    /// Starts the polling thread.
    func start() {
        thread.withLock { thread in
            guard thread == nil, !stop.isFired else { return }
            thread = IOThread.start(name: "peer-hello") { [self] in loop() }
        }
    }

    /// Takes an accepted socket; the oldest waiting one goes when the gate is full.
    func admit(_ socket: TCPSocket, connectedAt: ContinuousClock.Instant) {
        let evicted = pending.withLock { pending -> TCPSocket? in
            var oldest: TCPSocket?
            if pending.count >= capacity,
                let first = pending.min(by: { $0.value.connectedAt < $1.value.connectedAt })
            {
                pending[first.key] = nil
                oldest = first.value.socket
            }
            pending[socket.fileDescriptor] = Waiting(socket: socket, connectedAt: connectedAt)
            return oldest
        }
        if let evicted {
            evicted.shutdown()
            onDropped("\(capacity) connections were waiting for their ClientHello: the oldest was closed")
        }
        wake.wake()
    }

    /// Stops the thread and closes every waiting socket.
    func close() {
        guard stop.fire() else { return }
        let running = thread.withLock { $0 }
        running?.join()
        let left = pending.withLock { pending in
            defer { pending = [:] }
            return Array(pending.values)
        }
        for waiting in left { waiting.socket.shutdown() }
    }

    private func loop() {
        var buffer = [UInt8](repeating: 0, count: Self.maximumRecordBytes)
        while !stop.isFired {
            let waiting = pending.withLock { $0 }
            let now = ContinuousClock.now
            var expired: [Int32] = []
            var entries = [
                pollfd(fd: stop.fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0),
            ]
            var nearest: ContinuousClock.Instant?
            for (fd, entry) in waiting {
                let deadline = entry.connectedAt + timeout
                if deadline <= now {
                    expired.append(fd)
                    continue
                }
                nearest = min(nearest ?? deadline, deadline)
                entries.append(pollfd(fd: fd, events: Int16(POLLIN) | Self.readHangUp, revents: 0))
            }
            for fd in expired { drop(fd, "no ClientHello within \(timeout)") }
            let millis = Poll.milliseconds(until: nearest)
            let ready = poll(&entries, nfds_t(entries.count), millis)
            guard ready > 0 else { continue }
            if entries[1].revents != 0 { wake.drain() }
            for entry in entries.dropFirst(2) where entry.revents != 0 {
                inspect(
                    entry.fd, hungUp: entry.revents & (Self.readHangUp | Int16(POLLHUP | POLLERR)) != 0,
                    &buffer)
            }
        }
    }

    /// Looks at what a readable socket holds without taking it: a whole first record lets
    /// it through; part of one raises the socket's low-water mark to the record's size, so
    /// poll reports it again only once the rest is there.
    private func inspect(_ fd: Int32, hungUp: Bool, _ buffer: inout [UInt8]) {
        let count = buffer.withUnsafeMutableBytes {
            recv(fd, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT))
        }
        if count < 0 {
            if errno == EAGAIN || errno == EINTR { return }
            drop(fd, "reading the ClientHello failed: \(String(cString: strerror(errno)))")
            return
        }
        guard count > 0 else { return drop(fd, "closed before its ClientHello") }
        // A TLS handshake record: content type 22, then a 3.x version.
        guard buffer[0] == 22, count < 2 || buffer[1] == 3 else { return drop(fd, "not a TLS connection") }
        if count < 5 {
            if hungUp { return drop(fd, "closed before its ClientHello") }
            return lowWater(fd, 5)
        }
        let length = Int(buffer[3]) << 8 | Int(buffer[4])
        guard length > 0, 5 + length <= Self.maximumRecordBytes else {
            return drop(fd, "a first TLS record of \(length) bytes")
        }
        guard count >= 5 + length else {
            if hungUp { return drop(fd, "closed before its ClientHello") }
            return lowWater(fd, 5 + length)
        }
        lowWater(fd, 1)
        guard let waiting = pending.withLock({ $0.removeValue(forKey: fd) }) else { return }
        onReady(waiting.socket, waiting.connectedAt)
    }

    private func lowWater(_ fd: Int32, _ bytes: Int) {
        var value = Int32(bytes)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    private func drop(_ fd: Int32, _ reason: String) {
        guard let waiting = pending.withLock({ $0.removeValue(forKey: fd) }) else { return }
        waiting.socket.shutdown()
        onDropped(reason)
    }
}
