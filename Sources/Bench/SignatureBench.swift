import Foundation
import Replication
import Store
import Support

/// What signing change sets will cost (issue 12): per set of about 10,000 changes (the
/// apply benchmark's batch, 57 bytes a change on the wire), one SHA-256 of the set — which
/// the per-device hash chain needs anyway — and one Ed25519 signature over that digest,
/// made by the author and checked by every receiver. Signing the whole set instead would
/// hash it twice more (Ed25519's own SHA-512 passes): measured too, for comparison.
struct SignatureBench {
    let directory: String
    let rounds = 2_000
    let setBytes = 10_000 * 57

    func run() throws -> [BenchResult] {
        let identity = try PeerIdentity.loadOrCreate(directory: directory + "/identity")
        let set = (0..<setBytes).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var digest: [UInt8] = []
        let hash = measure { for _ in 0..<rounds { digest = SHA256Hasher.digest(set) } }
        var signature: [UInt8] = []
        let sign = measure { for _ in 0..<rounds { signature = Signature.sign(digest, with: identity) } }
        var ok = true
        let verify = measure {
            for _ in 0..<rounds {
                ok = ok && Signature.verify(signature, of: digest, certificateDER: identity.certificateDER)
            }
        }
        let whole = Signature.sign(set, with: identity)
        let verifyWhole = measure {
            for _ in 0..<rounds / 10 {
                ok = ok && Signature.verify(whole, of: set, certificateDER: identity.certificateDER)
            }
        }
        guard ok else { fatalError("a signature made here did not verify") }
        let perChange = 1e9 / Double(setBytes / 57)
        func ms(_ seconds: Double, _ count: Int) -> Double { seconds / Double(count) * 1e3 }
        return [
            BenchResult(
                name: "SHA-256 of a change set of 10,000 changes (570 KB)", unit: "ms",
                value: ms(hash, rounds), target: "-"),
            BenchResult(
                name: "sign a set's digest (Ed25519)", unit: "ms", value: ms(sign, rounds), target: "-"),
            BenchResult(
                name: "check a set's signature (certificate parsed each time)", unit: "ms",
                value: ms(verify, rounds),
                target: "-"),
            BenchResult(
                name: "check a signature over the whole 570 KB set instead (comparison)", unit: "ms",
                value: ms(verifyWhole, rounds / 10), target: "-"),
            BenchResult(
                name: "receiver's cost per change: SHA-256 + signature check", unit: "ns",
                value: (hash + verify) / Double(rounds) * perChange, target: "≪ 4,000 ns (250,000 changes/s)"),
        ]
    }
}
