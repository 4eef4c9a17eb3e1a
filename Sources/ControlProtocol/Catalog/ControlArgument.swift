/// One argument a control command takes: its key in `args`, its type, and whether it must
/// be given.
public struct ControlArgument: Sendable, Hashable {
    public let key: String
    public let type: ControlValueType
    public let isRequired: Bool

    public init(key: String, type: ControlValueType, isRequired: Bool) {
        self.key = key
        self.type = type
        self.isRequired = isRequired
    }

    /// An argument the request must carry (null does not count as given).
    public static func required(_ key: String, _ type: ControlValueType = .string) -> Self {
        Self(key: key, type: type, isRequired: true)
    }

    /// An argument the request may leave out or set to null.
    public static func optional(_ key: String, _ type: ControlValueType = .string) -> Self {
        Self(key: key, type: type, isRequired: false)
    }
}
