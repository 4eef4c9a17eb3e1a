import ControlProtocol
import Foundation
import Glibc

/// Serves one client of the control socket, on the client's own thread: reads request
/// lines, runs their handlers, writes responses, until the client leaves, a line is too
/// long, a stream ends, or the daemon stops.
final class ControlConnection {
    private let socket: LineSocket
    private let routes: ControlRoutes
    private let stop: StopSignal
    private let logger: Logger

    init(fd: Int32, routes: ControlRoutes, limits: DaemonLimits, stop: StopSignal, logger: Logger) {
        self.socket = LineSocket(fd: fd, maxLineBytes: limits.maxControlLineBytes)
        self.routes = routes
        self.stop = stop
        self.logger = logger
    }

    /// Runs until the connection is done, then closes it.
    func run() {
        defer { socket.close() }
        while !stop.isFired {
            if let read = socket.bufferedLine() {
                guard serve(read) else { return }
                continue
            }
            let ready = Poll.readable([socket.fd, stop.fd])
            if ready.contains(1) || !socket.fill() { return }
        }
    }

    /// Handles one read; false when the connection must close.
    private func serve(_ read: LineSocket.Read) -> Bool {
        switch read {
        case .end:
            return false
        case .tooLong:
            let limit = socket.maxLineBytes
            logger.warning("control request line too long, closing the connection", ["limit": "\(limit)"])
            let message =
                "the request line is longer than \(limit) bytes (max_control_line_bytes): "
                + "send a smaller request; this connection is now closed"
            _ = write(.failure(id: .null, error: ControlError(.lineTooLong, message)))
            socket.closeAfterDraining()
            return false
        case .line(let line):
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return true }
            return serve(line: line)
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
        let arguments = ControlArguments(command: request.command, values: request.args)
        switch entry.route {
        case .unary(let handler):
            do {
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
                let result = try handler(ControlArguments(command: request.command, values: values), reporter)
                return write(.success(id: request.id, result: result))
            } catch {
                return write(.failure(id: request.id, error: controlError(error, command: request.command)))
            }
        case .stream(let handler):
            let stream = ControlStream(requestID: request.id, socket: socket, stop: stop)
            do {
                try handler(arguments, stream)
            } catch {
                _ = write(.failure(id: request.id, error: controlError(error, command: request.command)))
            }
            return false
        }
    }

    /// The typed error for whatever a handler threw; unexpected errors are logged in full
    /// and reach the client as `internal`.
    private func controlError(_ error: any Error, command: String) -> ControlError {
        if let typed = error as? ControlError { return typed }
        if let convertible = error as? any ControlErrorConvertible { return convertible.controlError }
        if error is SystemCallError {
            return ControlError(.internalError, "\(command): the connection failed while streaming")
        }
        logger.error("control command failed unexpectedly: \(error)", ["command": command])
        return ControlError(.internalError, "\(command) failed inside peershared: see its log for details")
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
