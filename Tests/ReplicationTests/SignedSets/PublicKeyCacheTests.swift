import Dispatch
import Store
import Support
import Testing

@testable import Replication

/// The key cache answers exactly as `Signature.verify` with the certificate, stays within
/// its bound, and can be used from many threads at once.
@Suite struct PublicKeyCacheTests {
    var devices: [PeerIdentity] { SignedSetFixtures.devices }

    @Test func verifyingThroughTheCacheGivesTheSameAnswersAsParsingTheCertificate() throws {
        let signer = devices[0]
        let message = Array("a header".utf8)
        let good = Signature.sign(message, with: signer)
        var altered = good
        altered[10] ^= 1
        let byAnother = Signature.sign(message, with: devices[1])
        let malformed = Array(signer.certificateDER.dropLast())
        let cases: [(signature: [UInt8], message: [UInt8], certificate: [UInt8], expected: Bool)] = [
            (good, message, signer.certificateDER, true),
            (good, message + [0], signer.certificateDER, false),
            (altered, message, signer.certificateDER, false),
            (byAnother, message, signer.certificateDER, false),
            (Array(good.prefix(63)), message, signer.certificateDER, false),
            (good, message, malformed, false),
            (good, message, [], false),
        ]
        for (index, item) in cases.enumerated() {
            let plain = Signature.verify(item.signature, of: item.message, certificateDER: item.certificate)
            #expect(plain == item.expected, "case \(index): Signature.verify")
            // Twice with a cache of its own: the first call parses, the second uses the cached key.
            let cache = PublicKeyCache()
            for round in 0..<2 {
                let cached = cache.verify(
                    item.signature, of: item.message, by: signer.peerID,
                    certificates: { _ in item.certificate })
                #expect(cached == plain, "case \(index), round \(round): through the cache")
            }
        }
        // The malformed certificate was refused with its reason, and left no key behind.
        let fresh = PublicKeyCache()
        #expect(
            throws: SignedSetError.unusableCertificate(
                signer.peerID, reason: "it is malformed or its key is not Ed25519")
        ) {
            try fresh.key(for: signer.peerID, certificates: { _ in malformed })
        }
        #expect(throws: SignedSetError.unknownAuthor(signer.peerID)) {
            try fresh.key(for: signer.peerID, certificates: { _ in nil })
        }
        #expect(fresh.count == 0)
    }

    @Test func aCertificateOfAnotherDeviceIsNotCachedUnderTheClaimedID() throws {
        let cache = PublicKeyCache()
        let claimed = devices[0].peerID
        let message = Array("header".utf8)
        let signature = Signature.sign(message, with: devices[1])
        // Device 1 signs and hands in its own certificate under device 0's ID.
        #expect(
            !cache.verify(
                signature, of: message, by: claimed, certificates: { _ in devices[1].certificateDER }))
        #expect(
            throws: SignedSetError.unusableCertificate(
                claimed, reason: "it is the certificate of device \(devices[1].peerID)")
        ) { try cache.key(for: claimed, certificates: { _ in devices[1].certificateDER }) }
        #expect(cache.count == 0)
        // The right certificate then works.
        let own = Signature.sign(message, with: devices[0])
        #expect(cache.verify(own, of: message, by: claimed, certificates: { _ in devices[0].certificateDER }))
    }

    @Test func theCacheKeepsAtMostItsCapacityAndAsksForEvictedCertificatesAgain() throws {
        let cache = PublicKeyCache(capacity: 2)
        var asked: [PeerID] = []
        func key(_ index: Int) throws -> PublicKey {
            try cache.key(for: devices[index].peerID) { _ in
                asked.append(devices[index].peerID)
                return devices[index].certificateDER
            }
        }
        _ = try key(0)
        _ = try key(1)
        _ = try key(0)  // hit: 0 is now the most recently used
        _ = try key(2)  // evicts 1
        #expect(cache.count == 2)
        _ = try key(0)  // still cached
        _ = try key(1)  // asked again
        #expect(asked == [0, 1, 2, 1].map { devices[$0].peerID })
        #expect(cache.count == 2)
    }

    @Test func manyThreadsVerifyingWhileKeysAreEvictedGetTheRightAnswers() {
        let cache = PublicKeyCache(capacity: 2)
        let message = Array("concurrent".utf8)
        let signatures = devices.map { Signature.sign(message, with: $0) }
        let mistakes = Guarded(0)
        DispatchQueue.concurrentPerform(iterations: 2_000) { i in
            let signer = i % devices.count
            let claimed = (i / devices.count) % devices.count
            let answer = cache.verify(
                signatures[signer], of: message, by: devices[claimed].peerID,
                certificates: { _ in SignedSetFixtures.certificate(of: devices[claimed].peerID) })
            if answer != (signer == claimed) { mistakes.withLock { $0 += 1 } }
        }
        #expect(mistakes.withLock { $0 } == 0)
        #expect(cache.count <= 2)
    }
}
