import ControlProtocol
import Glibc
import Support

/// A streaming command's side of its connection: acknowledge, write events, and wait for
/// the next batch without missing that the client left or the daemon is stopping.
final class ControlStream {
    let requestID: JSON
    private let socket: LineSocket
    private let stop: StopSignal

    init(requestID: JSON, socket: LineSocket, stop: StopSignal) {
        self.requestID = requestID
        self.socket = socket
        self.stop = stop
    }

    /// Sends the ordinary success response that tells the client the stream has begun.
    func acknowledge(_ result: JSON) throws(SystemCallError) {
        try socket.write(ControlResponse.success(id: requestID, result: result).json)
    }

    /// Sends one event line.
    func send(_ event: ControlEvent) throws(SystemCallError) {
        try socket.write(event.streamLine(requestID: requestID))
    }

    /// Sends an error response, which ends the stream for the client.
    func fail(_ error: ControlError) throws(SystemCallError) {
        try socket.write(ControlResponse.failure(id: requestID, error: error).json)
    }

    /// Blocks until `fd` is readable (true), or the client hangs up or the daemon stops
    /// (false). `fd` wins ties, so events published just before a stop are still sent.
    /// Anything the client writes meanwhile is read and ignored.
    func wait(for fd: Int32) -> Bool {
        while true {
            let ready = Poll.readable([fd, socket.fd, stop.fd])
            if ready.contains(0) { return true }
            if ready.contains(2) { return false }
            if ready.contains(1) && !discardInput() { return false }
        }
    }

    /// Reads and drops client input; false once the client has closed its end.
    private func discardInput() -> Bool {
        var scratch = [UInt8](repeating: 0, count: 4096)
        let count = scratch.withUnsafeMutableBytes {
            recv(socket.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
        }
        return count > 0 || (count < 0 && (errno == EAGAIN || errno == EINTR))
    }
}
