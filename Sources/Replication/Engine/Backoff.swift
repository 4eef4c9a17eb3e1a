/// Delays between redial attempts: exponential from `base` up to `maximum`, each scaled by a
/// random factor in 1 ± `jitter`. A value type with the randomness passed in, so tests pin it.
public struct Backoff: Sendable, Equatable {
    public var base: Duration
    public var maximum: Duration
    public var jitter: Double

    public init(base: Duration, maximum: Duration, jitter: Double) {
        self.base = base
        self.maximum = max(base, maximum)
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The delay before attempt `attempt` (1 for the first retry), with `unit` a random
    /// number in 0…1.
    public func delay(attempt: Int, unit: Double) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        var delay = base * (1 << exponent)
        if delay > maximum { delay = maximum }
        let factor = 1 + jitter * (2 * min(max(unit, 0), 1) - 1)
        return delay * factor
    }
}
