import Store
import Synchronization

/// Which photo data is being fetched, engine-wide: two connections must never write the
/// same partial file, so the second one is told `busy` and waits for the first.
///
/// A claim another connection was refused is *contended*: releasing it calls the release
/// handler, so that the waiting connection asks at once instead of at its retry interval
/// (when the data was stored, the connections stop wanting it anyway).
public final class DataClaims: Sendable {
    private struct State {
        var claimed: Set<String> = []
        var contended: Set<String> = []
        var onRelease: (@Sendable (ContentHash) -> Void)?
    }

    private let state = Mutex(State())

    public init() {}

    /// Called with the hash of every contended claim released (on the releasing thread).
    public func onRelease(_ handler: @escaping @Sendable (ContentHash) -> Void) {
        state.withLock { $0.onRelease = handler }
    }

    /// Takes the claim on `hash` in `store`; false when another transfer holds it.
    public func claim(_ hash: ContentHash, in store: StoreKind) -> Bool {
        let key = Self.key(hash, store)
        return state.withLock { state in
            guard state.claimed.insert(key).inserted else {
                state.contended.insert(key)
                return false
            }
            return true
        }
    }

    public func release(_ hash: ContentHash, in store: StoreKind) {
        let key = Self.key(hash, store)
        let handler = state.withLock { state -> (@Sendable (ContentHash) -> Void)? in
            state.claimed.remove(key)
            return state.contended.remove(key) != nil ? state.onRelease : nil
        }
        handler?(hash)
    }

    private static func key(_ hash: ContentHash, _ store: StoreKind) -> String {
        "\(store.rawValue)/\(hash.hex)"
    }
}
