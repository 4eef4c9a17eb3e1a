import Dispatch
import Glibc
import Replication
import Store
import Support

/// The same photo data moved the plain way, measured in the same run as PeerShare's
/// transfer (the initial sync and the 1 GB figure of SPEC §11) as a reference: what the
/// protocol adds, or saves.
///
/// One TLS 1.3 connection over loopback, one thread a side. The sending thread reads each
/// file and writes it to the connection, nothing else (no frames, no metadata, no database,
/// no flow control); the receiving thread reads the stream into the store's own partial
/// files (`PartialBlob`: written, SHA-256 hashed, large data past the page cache), verifies
/// each, and publishes them all at the end (`BlobStore.publish`: one file sync, or one
/// filesystem sync for many, then the renames). Not a bound: PeerShare spreads the
/// receiving side over more threads (reading and decrypting; writing and hashing;
/// publishing), and can be faster.
struct PlainTransfer {
    let directory: String

    /// One file to send: its path at the sender and what the receiver checks it against.
    struct File {
        let path: String
        let hash: String
        let size: Int64
    }

    /// Wall time from the first byte sent until the last file is published, and the CPU
    /// time of both sides (this process) meanwhile.
    func run(_ files: [File]) throws -> (seconds: Double, cpu: Double) {
        let store = try BlobStore(root: directory + "/plain-receiver")
        let failure = Guarded<String?>(nil)
        let cpuBefore = processCPUSeconds()
        let seconds = try TLSStream(directory: directory).timed(
            receive: { connection in
                if let error = Self.receive(files, from: connection, into: store) {
                    failure.withLock { $0 = error }
                }
            },
            send: { connection in
                var buffer = [UInt8](repeating: 0, count: Self.chunk)
                for file in files { try Self.send(file.path, over: connection, buffer: &buffer) }
            })
        let cpu = processCPUSeconds() - cpuBefore
        if let error = failure.withLock({ $0 }) { throw BenchFailure(error) }
        return (seconds, cpu)
    }

    /// Reads and writes in pieces of this size: what the daemon's transfers use.
    static let chunk = 256 << 10

    private static func send(_ path: String, over connection: TLSConnection, buffer: inout [UInt8]) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BenchFailure("cannot open \(path)") }
        defer { close(fd) }
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            try buffer.withUnsafeBytes { raw in
                Result { () throws(TLSError) in
                    try connection.write(UnsafeRawBufferPointer(rebasing: raw[0..<n]))
                }
            }.get()
        }
    }

    /// Receives `files` in order; the first error, if any, as text.
    private static func receive(_ files: [File], from connection: TLSConnection, into store: BlobStore)
        -> String?
    {
        var buffer = [UInt8](repeating: 0, count: chunk)
        var received: [PartialBlob] = []
        do {
            for file in files {
                let blob = try PartialBlob(store: store, hash: file.hash, expectedSize: file.size)
                while blob.size < file.size {
                    let wanted = Int(min(Int64(chunk), file.size - blob.size))
                    let n = try buffer.withUnsafeMutableBytes { raw in
                        Result { () throws(TLSError) -> Int in
                            try connection.readAvailable(
                                into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<wanted]))
                        }
                    }.get()
                    guard n > 0 else { return "the stream ended before \(file.path) was whole" }
                    try buffer.withUnsafeBytes {
                        try blob.append(UnsafeRawBufferPointer(rebasing: $0[0..<n]))
                    }
                }
                guard try blob.verify() else { return "\(file.path) arrived with another hash" }
                received.append(blob)
            }
        } catch {
            return "\(error)"
        }
        return BlobStore.publish(received).compactMap { $0 }.first.map { "\($0)" }
    }
}

/// A bench's own failure, with what went wrong.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One TLS 1.3 connection over loopback between two fresh identities, for the references:
/// the raw stream and the plain transfer.
struct TLSStream {
    let directory: String

    /// Seconds from the start of `send` (on this thread) until `receive` (on the accepting
    /// side's thread, given the connection) has returned; the sender closes its side when
    /// `send` returns.
    func timed(
        receive: @escaping @Sendable (TLSConnection) -> Void, send: (TLSConnection) throws -> Void
    ) throws -> Double {
        let server = try PeerIdentity.loadOrCreate(directory: directory + "/stream-server")
        let client = try PeerIdentity.loadOrCreate(directory: directory + "/stream-client")
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let done = DispatchSemaphore(value: 0)
        let clientID = client.peerID
        listener.start { socket in
            IOThread.detach {
                let configuration = TLSConfiguration.server(identity: server) { $0 == clientID }
                if let connection = try? TLSConnection.handshake(over: socket, configuration: configuration) {
                    receive(connection)
                    connection.close()
                }
                done.signal()
            }
        }
        let socket = try TCPDialer.connect(host: "127.0.0.1", port: listener.port, timeout: .seconds(10))
        let connection = try TLSConnection.handshake(
            over: socket, configuration: .client(identity: client, expecting: server.peerID))
        return try measure {
            try send(connection)
            connection.close()
            done.wait()
        }
    }
}
