import ControlProtocol
import FoundationEssentials
import Glibc
import Store
import Support

/// Serves one client of the control socket, on the client's own thread: reads request
/// lines, runs their handlers, writes responses, until the client leaves, a line is too
/// long, a stream ends, the client stays idle too long, or the daemon stops.
///
/// Idle means waiting for a complete request line: the clock starts when the connection
/// opens and again after each response. A request being served (a long `sync` wait, a
/// big `photo.add`) and a `watch` stream are never idle.
final class ControlConnection {
    private let socket: LineSocket
    private let routes: ControlRoutes
    private let stop: StopSignal
    private let logger: Logger
    private let idleTimeout: Duration

    /// What serving a read asks of the connection.
    private enum Next {
        /// Keep reading; `answered` when a request was answered (the idle clock restarts).
        case read(answered: Bool)
        case close
    }

    init(fd: Int32, routes: ControlRoutes, limits: DaemonLimits, stop: StopSignal, logger: Logger) {
        self.socket = LineSocket(fd: fd, maxLineBytes: limits.maxControlLineBytes)
        self.routes = routes
        self.stop = stop
        self.logger = logger
        self.idleTimeout = .seconds(limits.controlIdleTimeout)
    }

    /// Runs until the connection is done, then closes it.
    func run() {
        defer { socket.close() }
        var idleSince = ContinuousClock.now
        while !stop.isFired {
            if let read = socket.bufferedLine() {
                switch serve(read) {
                case .close: return
                case .read(let answered): if answered { idleSince = .now }
                }
                continue
            }
            let left = idleSince + idleTimeout - .now
            guard left > .zero else {
                closeIdle()
                return
            }
            let ready = Poll.readable([socket.fd, stop.fd], timeout: left)
            if ready.contains(1) { return }
            if ready.contains(0) && !socket.fill() { return }
        }
    }

    /// Tells the client why (if it reads), logs it, and lets `run` close the connection.
    private func closeIdle() {
        let seconds = idleTimeout.components.seconds
        logger.info(
            "closed a control connection that sent no request in time",
            ["reason": "idle", "control_idle_timeout": "\(seconds)"])
        let message =
            "no complete request within \(seconds) s (control_idle_timeout): this connection is now "
            + "closed; connect again to send one"
        socket.writeWithoutWaiting(
            ControlResponse.failure(id: .null, error: ControlError(.idleTimeout, message)).json)
    }

    /// Handles one read.
    private func serve(_ read: LineSocket.Read) -> Next {
        switch read {
        case .end:
            return .close
        case .tooLong:
            let limit = socket.maxLineBytes
            logger.warning("control request line too long, closing the connection", ["limit": "\(limit)"])
            let message =
                "the request line is longer than \(limit) bytes (max_control_line_bytes): "
                + "send a smaller request; this connection is now closed"
            _ = write(.failure(id: .null, error: ControlError(.lineTooLong, message)))
            socket.closeAfterDraining()
            return .close
        case .line(let line):
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .read(answered: false) }
            return serve(line: line) ? .read(answered: true) : .close
        }
    }

    private func serve(line: Data) -> Bool {
        let request: ControlRequest
        do {
            request = try ControlRequest(line: line)
        } catch {
            logger.debug("control request refused", ["code": error.error.code.rawValue])
            return write(.failure(id: error.id, error: error.error))
        }
        guard let entry = routes.entry(request.command) else {
            logger.debug("control request for unknown command", ["command": request.command])
            let known = routes.commandNames.joined(separator: ", ")
            let message = "unknown command '\(request.command)': the commands are \(known)"
            return write(.failure(id: request.id, error: ControlError(.unknownCommand, message)))
        }
        logger.debug("control request", ["command": request.command])
        // What the handler commits is recorded under the client's name, if it gave one.
        return ClientAuthorContext.$name.withValue(request.author) { serve(request, entry) }
    }

    private func serve(_ request: ControlRequest, _ entry: ControlRoutes.Entry) -> Bool {
        let command = entry.command
        switch entry.route {
        case .unary(let handler):
            do {
                let arguments = try ControlArguments(command: command, values: request.args)
                return write(.success(id: request.id, result: try handler(arguments)))
            } catch {
                return write(.failure(id: request.id, error: controlError(error, command: request.command)))
            }
        case .progress(let handler):
            do {
                var values = request.args
                let wanted = values.removeValue(forKey: "progress") ?? false
                guard let wantsProgress = wanted.boolValue else {
                    throw ControlError(
                        .invalidArguments,
                        "\(request.command): argument \"progress\" must be true or false, got \(wanted.kindDescription)"
                    )
                }
                let reporter = ProgressReporter(requestID: request.id, socket: wantsProgress ? socket : nil)
                let result = try handler(try ControlArguments(command: command, values: values), reporter)
                return write(.success(id: request.id, result: result))
            } catch {
                return write(.failure(id: request.id, error: controlError(error, command: request.command)))
            }
        case .stream(let handler):
            let stream = ControlStream(requestID: request.id, socket: socket, stop: stop)
            do {
                try handler(try ControlArguments(command: command, values: request.args), stream)
            } catch {
                _ = write(.failure(id: request.id, error: controlError(error, command: request.command)))
            }
            return false
        }
    }

    private func controlError(_ error: any Error, command: String) -> ControlError {
        ControlRoutes.controlError(error, command: command, logger: logger)
    }

    /// Writes a response; false when the client is gone.
    private func write(_ response: ControlResponse) -> Bool {
        do {
            try socket.write(response.json)
            return true
        } catch {
            logger.debug("control client went away: \(error)")
            return false
        }
    }
}
