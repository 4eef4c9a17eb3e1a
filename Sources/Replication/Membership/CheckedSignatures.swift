import Store
import Support
import Synchronization

/// Membership operations whose signature was already found good with a given certificate,
/// process-wide, so that a log loaded again checks only the operations new to it.
///
/// Why: a log is rebuilt and every operation checked each time it is read (an operation
/// received, a join answered, the owner reconciling), and a share's log grows with its
/// members: with 50 participants joining one after the other, every member checked every
/// operation again at each join (about 50 × 100 signature checks of 0.2–0.3 ms each), which
/// slowed joins past their timeout on a loaded machine. Only good results are kept, keyed
/// by the operation's hash (which covers its bytes and signature) and the certificate's
/// digest, so nothing an attacker sends can make a bad signature pass.
enum CheckedSignatures {
    /// Results kept before the set is emptied and starts again (about 64 bytes each).
    static let capacity = 100_000

    private static let good = Mutex<Set<[UInt8]>>([])

    /// Whether `operation` is signed with the key in `certificate`: remembered if so.
    static func isSigned(_ operation: MembershipOperation, withKeyIn certificate: [UInt8]) -> Bool {
        let key = operation.hash + SHA256Hasher.digest(certificate)
        if good.withLock({ $0.contains(key) }) { return true }
        guard operation.isSigned(withKeyIn: certificate) else { return false }
        good.withLock { good in
            if good.count >= capacity { good.removeAll(keepingCapacity: true) }
            good.insert(key)
        }
        return true
    }
}
