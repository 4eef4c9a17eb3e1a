import COpenSSL
import Glibc
import Support
import Testing

@testable import Replication

/// What reaches a PeerShare server from clients that do not speak our TLS.
@Suite struct TLSRefusalTests {
    @Test func aPlaintextClientGetsNowhere() async throws {
        let harness = try TLSHarness()
        try harness.startServer(harness.serverConfiguration())
        let port = harness.port
        let reply = try await onIOThread { () -> [UInt8] in
            let socket = try TCPDialer.connect(host: "127.0.0.1", port: port, timeout: .seconds(10))
            let request = Array("HELLO PeerShare, plaintext please\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { write(socket.fileDescriptor, $0.baseAddress, $0.count) }
            return readRawToEnd(socket.fileDescriptor)
        }
        let serverResult = try #require(await harness.nextServerResult())
        let error = try #require(serverResult.failureAs(TLSError.self))
        guard case .handshakeFailed(let detail) = error else {
            Issue.record("expected handshakeFailed, got \(error)")
            return
        }
        #expect(!detail.isEmpty)
        // At most a TLS alert record (content type 21) comes back, never application data.
        #expect(reply.isEmpty || reply[0] == 21, "reply: \(reply)")
    }

    @Test func aSilentClientTimesOutTheHandshake() async throws {
        let harness = try TLSHarness()
        var configuration = harness.serverConfiguration()
        configuration.handshakeTimeout = .milliseconds(100)
        try harness.startServer(configuration)
        let port = harness.port
        let socket = try await onIOThread {
            try TCPDialer.connect(host: "127.0.0.1", port: port, timeout: .seconds(10))
        }
        let serverResult = try #require(await harness.nextServerResult())
        #expect(throws: TLSError.timedOut(operation: "handshake", after: .milliseconds(100))) {
            try serverResult.get()
        }
        _ = socket
    }

    @Test func aTLS12ClientIsRefused() async throws {
        let harness = try TLSHarness()
        try harness.startServer(harness.serverConfiguration())
        let port = harness.port
        let identity = harness.clientIdentity
        let clientResult = try await onIOThread { () -> Int32 in
            let socket = try TCPDialer.connect(host: "127.0.0.1", port: port, timeout: .seconds(10))
            return rawHandshake(fd: socket.fileDescriptor, identity: identity, maxVersion: TLS1_2_VERSION)
        }
        #expect(clientResult != 1)
        let serverResult = try #require(await harness.nextServerResult())
        let error = try #require(serverResult.failureAs(TLSError.self))
        #expect(error.description.contains("TLS handshake failed"))
        #expect(error.description.contains("unsupported protocol"))
    }

    @Test func aClientWithoutCertificateIsRefused() async throws {
        let harness = try TLSHarness()
        try harness.startServer(harness.serverConfiguration())
        let port = harness.port
        let clientResult = try await onIOThread { () -> Int32 in
            let socket = try TCPDialer.connect(host: "127.0.0.1", port: port, timeout: .seconds(10))
            return rawHandshake(fd: socket.fileDescriptor, identity: nil, maxVersion: TLS1_3_VERSION)
        }
        #expect(clientResult != 1)
        let serverResult = try #require(await harness.nextServerResult())
        let error = try #require(serverResult.failureAs(TLSError.self))
        #expect(error.description.contains("peer did not return a certificate"))
    }
}

/// A blocking handshake by a raw OpenSSL client limited to `maxVersion`, presenting
/// `identity` if given; returns SSL_connect's result. With TLS 1.3, it then tries one read,
/// where a server's refusal of the client shows.
private func rawHandshake(fd: Int32, identity: PeerIdentity?, maxVersion: Int32) -> Int32 {
    let context = SSL_CTX_new(TLS_client_method())!
    defer { SSL_CTX_free(context) }
    _ = peershare_ssl_ctx_set_max_proto(context, maxVersion)
    if let identity {
        _ = SSL_CTX_use_certificate(context, identity.certificate)
        _ = SSL_CTX_use_PrivateKey(context, identity.privateKey)
    }
    let ssl = SSL_new(context)!
    defer { SSL_free(ssl) }
    _ = SSL_set_fd(ssl, fd)
    var result = SSL_connect(ssl)
    if result == 1 {
        var byte: UInt8 = 0
        result = SSL_read(ssl, &byte, 1)
    }
    ERR_clear_error()
    return result
}

/// Reads a raw socket until end of stream or error.
private func readRawToEnd(_ fd: Int32) -> [UInt8] {
    var all: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count <= 0 { return all }
        all += buffer[0..<count]
    }
}
