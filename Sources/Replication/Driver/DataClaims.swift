import Store
import Synchronization

/// Which photo data is being fetched, engine-wide: two connections must never write the
/// same partial file, so the second one is told `busy` and retries later.
public final class DataClaims: Sendable {
    private let claimed = Mutex<Set<String>>([])

    public init() {}

    /// Takes the claim on `hash` in `store`; false when another transfer holds it.
    public func claim(_ hash: ContentHash, in store: StoreKind) -> Bool {
        claimed.withLock { $0.insert(Self.key(hash, store)).inserted }
    }

    public func release(_ hash: ContentHash, in store: StoreKind) {
        _ = claimed.withLock { $0.remove(Self.key(hash, store)) }
    }

    private static func key(_ hash: ContentHash, _ store: StoreKind) -> String {
        "\(store.rawValue)/\(hash.hex)"
    }
}
