import Glibc
import Store
import Support
import Testing

@testable import Replication

@Suite struct TCPSocketTests {
    @Test func portZeroPicksAFreePortAndReportsIt() throws {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        #expect(listener.port != 0)
        #expect(listener.host == "127.0.0.1")
        #expect(listener.address == "127.0.0.1:\(listener.port)")
    }

    @Test func aBusyPortIsRefusedWithTheAddressAndAHint() throws {
        let first = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { first.close() }
        let error = try #require(throws: SocketError.self) {
            try TCPListener.bind(host: "127.0.0.1", port: first.port)
        }
        // Its own case, so that the daemon can exit with a status systemd does not restart on.
        #expect(error == .addressInUse(address: first.address))
        #expect(error.description.contains(String(cString: strerror(EADDRINUSE))))
        #expect(error.description.contains("port 0 picks a free one"))
    }

    @Test func acceptedAndDialedSocketsSeeEachOther() async throws {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let (accepted, continuation) = AsyncStream.makeStream(of: TCPSocket.self)
        listener.start { continuation.yield($0) }
        let port = listener.port
        let dialed = try await IOThread.run {
            try TCPDialer.connect(host: "127.0.0.1", port: port, timeout: .seconds(10))
        }
        var iterator = accepted.makeAsyncIterator()
        let server = try #require(await iterator.next())
        #expect(dialed.remoteAddress == listener.address)
        #expect(server.remoteAddress.hasPrefix("127.0.0.1:"))
    }

    @Test func closingTheListenerReleasesThePort() async throws {
        // Tests run in parallel: another test's listener may be given the freed port, or a
        // dial's own ephemeral port may equal it (a TCP self-connect). Only a port that
        // still answers on every one of a few tries is this listener's fault.
        var answered: [UInt16] = []
        for _ in 0..<5 {
            let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
            listener.start { _ in }
            let port = listener.port
            listener.close()
            do {
                _ = try await IOThread.run {
                    try TCPDialer.connect(host: "127.0.0.1", port: port, timeout: .seconds(10))
                }
                answered.append(port)
            } catch let error as SocketError {
                #expect(
                    error
                        == .cannotConnect(
                            address: "127.0.0.1:\(port)",
                            reason: String(cString: strerror(ECONNREFUSED))))
                #expect(error.description.contains("check that the peer is running"))
                return
            }
        }
        Issue.record("every closed listener's port still took a connection: \(answered)")
    }

    @Test func closingAListenerThatNeverStartedReleasesThePort() throws {
        // Another process of a loaded machine may take the freed port in between (an
        // outgoing connection's local port): only a port that stays taken on every one of
        // a few tries is this listener's fault.
        var failures: [String] = []
        for _ in 0..<5 {
            let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
            let port = listener.port
            listener.close()
            do {
                let again = try TCPListener.bind(host: "127.0.0.1", port: port)
                again.close()
                return
            } catch {
                failures.append("\(error)")
            }
        }
        Issue.record("no freed port could be bound again: \(failures)")
    }

    @Test func ipv6LoopbackIsShownInBrackets() throws {
        guard let listener = try? TCPListener.bind(host: "::1", port: 0) else { return }  // no IPv6 here
        defer { listener.close() }
        #expect(listener.address == "[::1]:\(listener.port)")
    }
}
