import ControlProtocol

/// A request's `args`, checked against its command's catalog entry when made, and read
/// with typed accessors.
///
/// The catalog (`ControlCommand`) decides which arguments exist, their types and which are
/// required, and `init` refuses anything else with an `invalid_arguments` error naming the
/// command, the argument and what was expected. An accessor that asks for an argument the
/// catalog does not declare, or as another type, is a mistake in the daemon: it answers
/// `internal` instead of guessing.
struct ControlArguments: Sendable {
    let command: ControlCommand
    let values: [String: JSON]

    /// Checks `values` against `command`'s declared arguments.
    init(command: ControlCommand, values: [String: JSON]) throws(ControlError) {
        try command.check(values)
        self.command = command
        self.values = values
    }

    /// A required string.
    func string(_ key: String) throws(ControlError) -> String {
        try required(key, .string).stringValue ?? ""
    }

    /// An optional string (absent or null gives nil).
    func optionalString(_ key: String) throws(ControlError) -> String? {
        try optional(key, .string)?.stringValue
    }

    /// A required whole number.
    func int(_ key: String) throws(ControlError) -> Int {
        try required(key, .integer).intValue ?? 0
    }

    /// An optional whole number.
    func optionalInt(_ key: String) throws(ControlError) -> Int? {
        try optional(key, .integer)?.intValue
    }

    /// An optional Boolean, `fallback` when absent.
    func bool(_ key: String, default fallback: Bool) throws(ControlError) -> Bool {
        try optional(key, .boolean)?.boolValue ?? fallback
    }

    /// An optional array of strings (absent gives []).
    func strings(_ key: String) throws(ControlError) -> [String] {
        (try optional(key, .strings)?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// A required absolute file path: the daemon has its own working directory, so a
    /// relative path would name the wrong file.
    func absolutePath(_ key: String) throws(ControlError) -> String {
        try required(key, .absolutePath).stringValue ?? ""
    }

    /// An optional absolute file path.
    func optionalAbsolutePath(_ key: String) throws(ControlError) -> String? {
        try optional(key, .absolutePath)?.stringValue
    }

    /// The value of a required argument, which `init` has checked.
    private func required(_ key: String, _ type: ControlValueType) throws(ControlError) -> JSON {
        try requireDeclared(key, type, isRequired: true)
        guard let value = values[key] else { throw undeclared(key, type, isRequired: true) }
        return value
    }

    /// The value of an optional argument, nil when absent or null.
    private func optional(_ key: String, _ type: ControlValueType) throws(ControlError) -> JSON? {
        try requireDeclared(key, type, isRequired: false)
        guard let value = values[key], value != .null else { return nil }
        return value
    }

    private func requireDeclared(_ key: String, _ type: ControlValueType, isRequired: Bool)
        throws(ControlError)
    {
        guard command.argument(key) == ControlArgument(key: key, type: type, isRequired: isRequired) else {
            throw undeclared(key, type, isRequired: isRequired)
        }
    }

    private func undeclared(_ key: String, _ type: ControlValueType, isRequired: Bool) -> ControlError {
        let wanted = "\(isRequired ? "required" : "optional"), \(type)"
        return ControlError(
            .internalError,
            "\(command) failed inside peershared: it reads argument \"\(key)\" (\(wanted)), "
                + "which the control catalog does not declare that way; please report this")
    }
}
