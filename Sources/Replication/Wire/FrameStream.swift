import Synchronization

/// Frames over an authenticated TLS connection: what a sync session talks through.
///
/// Joins `TLSConnection` (bytes) and `FrameDecoder` (frames) so that the session layer sends
/// and receives whole messages, and runs the hello exchange that opens every connection.
/// One thread may receive while others send; sends are never interleaved.
public final class FrameStream: @unchecked Sendable {
    public let connection: TLSConnection
    public let maximumFrameSize: Int
    /// The receiving side's state; only `receive` touches it.
    private let reader: Mutex<ReadState>

    private struct ReadState {
        var decoder: FrameDecoder
        /// Reused for every socket read, so small frames cost no allocation beyond their own.
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    }

    public init(connection: TLSConnection, maximumFrameSize: Int = WireLimits.defaultMaximumFrameSize) {
        self.connection = connection
        self.maximumFrameSize = maximumFrameSize
        self.reader = Mutex(ReadState(decoder: FrameDecoder(maximumFrameSize: maximumFrameSize)))
    }

    /// Sends one frame.
    public func send(_ frame: Frame) throws(FrameStreamError) {
        try send([frame])
    }

    /// Sends frames in one write, so a batch costs one TLS record sequence, not many.
    public func send(_ frames: [Frame]) throws(FrameStreamError) {
        var bytes: [UInt8] = []
        do {
            for frame in frames { try frame.encode(into: &bytes, maximumFrameSize: maximumFrameSize) }
        } catch {
            throw .wire(error)
        }
        do {
            try connection.write(bytes)
        } catch {
            throw .transport(error)
        }
    }

    /// The next frame, blocking until it has fully arrived; nil when the other side closed
    /// the connection cleanly between two frames.
    public func receive() throws(FrameStreamError) -> Frame? {
        try reader.withLock { (state) throws(FrameStreamError) -> Frame? in
            while true {
                let output: FrameDecoder.Output
                do throws(WireError) {
                    output = try state.decoder.next()
                } catch {
                    throw .wire(error)
                }
                if case .frame(let frame) = output { return frame }
                let count: Int
                do throws(TLSError) {
                    count = try state.chunk.withUnsafeMutableBytes { raw in
                        Result { () throws(TLSError) -> Int in try connection.read(into: raw) }
                    }.get()
                } catch {
                    throw .transport(error)
                }
                if count == 0 {
                    do throws(WireError) { try state.decoder.finish() } catch { throw .wire(error) }
                    return nil
                }
                state.decoder.feed(state.chunk[0..<count])
            }
        }
    }

    /// Sends our hello, reads the other side's, and agrees on a version with it. Both sides
    /// call this first thing; hellos are small, so sending before reading cannot deadlock.
    public func exchangeHello(_ local: Hello) throws(FrameStreamError) -> VersionAgreement {
        try send(local.frame())
        guard let frame = try receive() else {
            throw .transport(
                .connectionFailed(operation: "hello", detail: "the other side closed the connection"))
        }
        do {
            let remote = try Hello(frame: frame)
            return try VersionAgreement(
                local: local, remote: remote, authenticatedPeer: connection.remotePeerID)
        } catch {
            throw .wire(error)
        }
    }
}

/// Why a frame stream failed: the transport broke, or the peer sent something invalid.
/// Either way the connection is finished; the two are kept apart for logs and retry policy.
public enum FrameStreamError: Error, Equatable, Sendable, CustomStringConvertible {
    case transport(TLSError)
    case wire(WireError)

    public var description: String {
        switch self {
        case .transport(let error): return error.description
        case .wire(let error): return "protocol error: " + error.description
        }
    }
}
