import Store
import Testing

@testable import Replication

@Suite struct SessionKeepaliveTests {
    static var fast: SessionConfiguration {
        var configuration = SessionConfiguration()
        configuration.pingInterval = .seconds(15)
        configuration.silenceTimeout = .seconds(45)
        configuration.helloTimeout = .seconds(10)
        return configuration
    }

    @Test func aQuietConnectionIsPingedAndAPingIsAnswered() {
        var probe = SessionProbe(configuration: Self.fast)
        probe.advance(.seconds(14))
        probe.handle(.tick)
        #expect(probe.sent.isEmpty)
        probe.advance(.seconds(1))
        probe.handle(.tick)
        #expect(probe.sent == [.ping(Ping(nonce: 1))])
        probe.advance(.seconds(1))
        probe.handle(.tick)
        #expect(probe.sent.isEmpty, "no second ping right after the first")
        probe.receive(Ping(nonce: 77))
        #expect(probe.sent == [.pong(Pong(nonce: 77))])
    }

    @Test func aSilentPeerIsDroppedAfterTheTimeoutAndAnyFrameKeepsItAlive() {
        var probe = SessionProbe(configuration: Self.fast)
        for _ in 0..<4 {
            probe.advance(.seconds(30))
            probe.receive(Pong(nonce: 1))
            probe.handle(.tick)
            #expect(probe.closeReason == nil)
        }
        probe.advance(.seconds(45))
        probe.handle(.tick)
        guard case .timeout(let text) = probe.closeReason else {
            Issue.record("expected a timeout, got \(String(describing: probe.closeReason))")
            return
        }
        #expect(text.contains("seems gone"))
        #expect(
            probe.sent.last.map { if case .error(let e) = $0 { e.code == .timeout } else { false } } == true)
    }

    @Test func aMissingHelloTimesOut() {
        var probe = SessionProbe(configuration: Self.fast, established: false)
        probe.advance(.seconds(9))
        probe.handle(.tick)
        #expect(probe.closeReason == nil)
        probe.advance(.seconds(1))
        probe.handle(.tick)
        #expect(probe.closeReason == .timeout("no hello within 10.0 seconds"))
    }
}
