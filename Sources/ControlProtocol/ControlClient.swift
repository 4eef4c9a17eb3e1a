import Foundation
import Glibc

/// A connection to `peershared`'s control socket that sends requests and reads answers.
///
/// The CLI's only way to the daemon, and the example other tools can follow. Synchronous:
/// one request at a time, the ID a counter.
public final class ControlClient {
    public let socketPath: String
    private let socket: LineSocket
    private var nextID = 1

    /// Connects; throws `.unreachable` when nothing listens at `socketPath`.
    public init(socketPath: String, maxLineBytes: Int = 64 << 20) throws(ControlClientError) {
        self.socketPath = socketPath
        do {
            self.socket = LineSocket(fd: try UnixSocket.connect(path: socketPath), maxLineBytes: maxLineBytes)
        } catch {
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
            try socket.write(ControlRequest(id: id, command: command, args: args).json)
        } catch {
            throw .connectionClosed(socketPath)
        }
        return id
    }

    private func readMessage() throws(ControlClientError) -> ControlClientMessage {
        switch socket.readLine() {
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
