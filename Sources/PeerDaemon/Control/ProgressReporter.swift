import ControlProtocol
import Glibc
import Support

/// Reports how far a long request (`photo.add`, `photo.export`) has got, as `progress`
/// event lines before its response, when the client asked with `"progress": true`.
///
/// `track` sends `{"bytes": 0, "total": N}` at once, then a new line whenever the measured
/// count moves (checked every `interval`) and at least every `heartbeat` even when it does
/// not (a client that gives up on a silent daemon keeps waiting while the copy syncs to
/// disk), then `{"bytes": N, "total": N}` when the work succeeds, and always before the
/// response. Without the request flag it only runs the work. A client that goes away
/// mid-way just stops receiving; the work goes on.
///
/// Thread safety: the connection's socket is written by one thread at a time. While the
/// work runs, only the ticker thread writes; `track` joins it before returning, and the
/// connection thread writes the response only after that.
final class ProgressReporter: @unchecked Sendable {
    private let requestID: JSON
    private let socket: LineSocket?
    private let interval: Int32
    private let heartbeat: Duration

    /// `socket` is nil when the client did not ask for progress.
    init(
        requestID: JSON, socket: LineSocket?, intervalMilliseconds: Int32 = 200,
        heartbeat: Duration = .seconds(5)
    ) {
        self.requestID = requestID
        self.socket = socket
        self.interval = intervalMilliseconds
        self.heartbeat = heartbeat
    }

    /// Runs `work`, reporting `measure()` (bytes done so far, nil when unknown) out of
    /// `total`; with no total (nothing to copy: a missing file) it reports nothing.
    func track<T>(total: Int64?, measure: @escaping @Sendable () -> Int64?, _ work: () throws -> T) throws
        -> T
    {
        guard let socket, let total else { return try work() }
        let sender = LineSender(socket: socket, requestID: requestID)
        sender.send(bytes: 0, total: total)
        let done = WakePipe()
        let ticker = IOThread.start(name: "control-progress") { [interval, heartbeat] in
            var last: Int64 = 0
            var lastSent = ContinuousClock.now
            while Poll.readable([done.fd], timeout: .milliseconds(interval)).isEmpty {
                if let bytes = measure(), bytes != last, bytes <= total {
                    last = bytes
                } else if ContinuousClock.now - lastSent < heartbeat {
                    continue
                }
                sender.send(bytes: last, total: total)
                lastSent = .now
            }
        }
        let result: T
        do {
            result = try work()
        } catch {
            done.wake()
            ticker.join()
            throw error
        }
        done.wake()
        ticker.join()
        sender.send(bytes: total, total: total)
        return result
    }
}

/// Writes progress events on a socket until a write fails (the client left).
private final class LineSender: @unchecked Sendable {
    let socket: LineSocket
    let requestID: JSON
    var broken = false

    init(socket: LineSocket, requestID: JSON) {
        self.socket = socket
        self.requestID = requestID
    }

    func send(bytes: Int64, total: Int64) {
        guard !broken else { return }
        let event = ControlEvent(
            type: "progress", data: ["bytes": .int(Int(bytes)), "total": .int(Int(total))])
        do {
            try socket.write(event.streamLine(requestID: requestID))
        } catch {
            broken = true
        }
    }
}
