/// What a control argument's value must be, as the catalog declares it.
///
/// The daemon checks every request against it before a handler runs, and the CLI derives
/// from it how a command-line value is read: a path is made absolute, an integer parsed, a
/// Boolean is a flag, an array of strings a repeatable option.
public enum ControlValueType: Sendable, Hashable, CustomStringConvertible {
    case string
    /// A string that must be an absolute path: the daemon has its own working directory.
    case absolutePath
    case integer
    case boolean
    case strings

    /// The type as an error names what was expected: "a string", "a whole number", …
    public var description: String {
        switch self {
        case .string, .absolutePath: return "a string"
        case .integer: return "a whole number"
        case .boolean: return "true or false"
        case .strings: return "an array of strings"
        }
    }

    /// Whether `value` has this type (an absolute path's prefix is checked separately, so
    /// that its error can say what is wrong with it).
    public func accepts(_ value: JSON) -> Bool {
        switch self {
        case .string, .absolutePath: return value.stringValue != nil
        case .integer: return value.intValue != nil
        case .boolean: return value.boolValue != nil
        case .strings: return value.arrayValue?.allSatisfy { $0.stringValue != nil } ?? false
        }
    }
}
