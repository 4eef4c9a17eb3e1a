import FoundationEssentials
import Glibc

/// A connection to `peershared`'s control socket that sends requests and reads answers.
///
/// The CLI's only way to the daemon, and the example other tools can follow. Synchronous:
/// one request at a time, the ID a counter.
///
/// With a `timeout`, connecting, sending, and waiting for each line from the daemon give up
/// after that long with `.timedOut`, so a daemon that accepts but never answers cannot
/// hold a client for ever. It bounds the silence between lines, not a whole command: a
/// long copy that reports progress keeps its connection alive, and a stream's events, once
/// acknowledged, are waited for without a limit.
public final class ControlClient {
    public let socketPath: String
    /// How long to wait for the daemon at each step; nil waits for ever.
    public var timeout: Duration?
    /// The client's name, sent with every request (`ClientAuthor`): history records what
    /// the requests commit under it. Nil sends none (history says `local`).
    public var author: String?
    private let socket: LineSocket
    private var nextID = 1

    /// Connects; throws `.unreachable` when nothing listens at `socketPath`, `.timedOut`
    /// when the daemon does not take the connection within `timeout`.
    public init(socketPath: String, maxLineBytes: Int = 64 << 20, timeout: Duration? = nil)
        throws(ControlClientError)
    {
        self.socketPath = socketPath
        self.timeout = timeout
        do {
            let fd = try UnixSocket.connect(path: socketPath, sendTimeout: timeout)
            self.socket = LineSocket(fd: fd, maxLineBytes: maxLineBytes)
        } catch {
            if error.code == EAGAIN, let timeout { throw .timedOut(socketPath, after: timeout) }
            throw ControlClientError(connecting: socketPath, error)
        }
    }

    /// Runs `command` and returns its result; a daemon-side error is thrown as `.daemon`.
    ///
    /// With `onEvent`, events the daemon sends before the response (`progress`, for a
    /// request made with `"progress": true`) are handed to it; without, they break the
    /// protocol.
    public func call(
        _ command: String, args: [String: JSON] = [:], onEvent: ((ControlEvent) -> Void)? = nil
    ) throws(ControlClientError) -> JSON {
        let id = try send(command, args: args)
        while true {
            switch try readMessage() {
            case .event(let event) where onEvent != nil: onEvent?(event)
            case .response(.success(let answered, let result)) where answered == id: return result
            case .response(.failure(_, let error)): throw .daemon(error)
            default: throw .protocolViolation(socketPath, "expected the answer to request \(id)")
            }
        }
    }

    /// Runs a streaming command: returns once the daemon acknowledged it, then hands each
    /// event to `onEvent` until it returns false or the stream ends. Returns normally when
    /// the daemon ends the stream (for example because it is stopping).
    public func stream(
        _ command: String, args: [String: JSON] = [:], onEvent: (ControlEvent) -> Bool
    ) throws(ControlClientError) {
        _ = try call(command, args: args)
        // Events come when they come: only the acknowledgement is waited for with a limit.
        timeout = nil
        while true {
            let message: ControlClientMessage
            do {
                message = try readMessage()
            } catch .connectionClosed {
                return
            }
            switch message {
            case .event(let event): if !onEvent(event) { return }
            case .response(.failure(_, let error)): throw .daemon(error)
            case .response(.success): throw .protocolViolation(socketPath, "unexpected response in a stream")
            }
        }
    }

    /// Stops the connection from another thread: a blocked `stream` returns.
    public var interruptHandle: InterruptHandle { InterruptHandle(fd: socket.fd) }

    /// Ends a client's connection from another thread (a signal handler thread, say),
    /// without touching the client itself, which is not thread-safe.
    public struct InterruptHandle: Sendable {
        let fd: Int32

        /// Shuts the connection down; the client's blocked read returns end of stream.
        public func interrupt() {
            shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    private func send(_ command: String, args: [String: JSON]) throws(ControlClientError) -> JSON {
        let id = JSON.int(nextID)
        nextID += 1
        do {
            try socket.write(ControlRequest(id: id, command: command, args: args, author: author).json)
        } catch {
            if error.code == EAGAIN, let timeout { throw .timedOut(socketPath, after: timeout) }
            // A daemon that refuses the connection writes why and closes without reading
            // the request: its answer may already be here.
            if case .response(.failure(_, let refusal))? = try? readMessage() { throw .daemon(refusal) }
            throw .connectionClosed(socketPath)
        }
        return id
    }

    /// The next line: a whole one already buffered, else what arrives within `timeout`.
    private func nextLine() throws(ControlClientError) -> LineSocket.Read {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            if let ready = socket.bufferedLine() { return ready }
            if let deadline, let timeout {
                guard socket.waitReadable(until: deadline) else {
                    throw .timedOut(socketPath, after: timeout)
                }
            }
            guard socket.fill() else { return .end }
        }
    }

    private func readMessage() throws(ControlClientError) -> ControlClientMessage {
        switch try nextLine() {
        case .end: throw .connectionClosed(socketPath)
        case .tooLong: throw .protocolViolation(socketPath, "a line from the daemon is too long")
        case .line(let line):
            guard let value = JSONLine.decode(line) else {
                throw .protocolViolation(socketPath, "the daemon sent a line that is not JSON")
            }
            if let event = value["event"].flatMap(ControlEvent.init(json:)) { return .event(event) }
            if let response = ControlResponse(json: value) { return .response(response) }
            throw .protocolViolation(socketPath, "the daemon sent neither a response nor an event")
        }
    }
}

/// A line a client reads: the answer to a request, or an event of a stream.
enum ControlClientMessage {
    case response(ControlResponse)
    case event(ControlEvent)
}
