import ControlProtocol

/// A request's `args`, read with typed accessors that throw `invalid_arguments` errors
/// naming the command, the argument and what was expected.
struct ControlArguments: Sendable {
    let command: String
    let values: [String: JSON]

    /// A required string.
    func string(_ key: String) throws(ControlError) -> String {
        guard let value = values[key] else { throw missing(key, "a string") }
        guard let text = value.stringValue else { throw wrongType(key, "a string", value) }
        return text
    }

    /// An optional string (absent or null gives nil).
    func optionalString(_ key: String) throws(ControlError) -> String? {
        guard let value = values[key], value != .null else { return nil }
        guard let text = value.stringValue else { throw wrongType(key, "a string", value) }
        return text
    }

    /// A required whole number.
    func int(_ key: String) throws(ControlError) -> Int {
        guard let value = values[key] else { throw missing(key, "a whole number") }
        guard let number = value.intValue else { throw wrongType(key, "a whole number", value) }
        return number
    }

    /// An optional whole number.
    func optionalInt(_ key: String) throws(ControlError) -> Int? {
        guard let value = values[key], value != .null else { return nil }
        guard let number = value.intValue else { throw wrongType(key, "a whole number", value) }
        return number
    }

    /// An optional Boolean, `fallback` when absent.
    func bool(_ key: String, default fallback: Bool) throws(ControlError) -> Bool {
        guard let value = values[key], value != .null else { return fallback }
        guard let flag = value.boolValue else { throw wrongType(key, "true or false", value) }
        return flag
    }

    /// An optional array of strings (absent gives []).
    func strings(_ key: String) throws(ControlError) -> [String] {
        guard let value = values[key], value != .null else { return [] }
        guard let items = value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
            throw wrongType(key, "an array of strings", value)
        }
        return items.compactMap(\.stringValue)
    }

    /// A required absolute file path: the daemon has its own working directory, so a
    /// relative path would name the wrong file.
    func absolutePath(_ key: String) throws(ControlError) -> String {
        try checkedPath(key, try string(key))
    }

    /// An optional absolute file path.
    func optionalAbsolutePath(_ key: String) throws(ControlError) -> String? {
        guard let path = try optionalString(key) else { return nil }
        return try checkedPath(key, path)
    }

    /// Refuses arguments other than `allowed`, so a typo is reported, not ignored.
    func allowOnly(_ allowed: Set<String>) throws(ControlError) {
        guard let unknown = values.keys.sorted().first(where: { !allowed.contains($0) }) else { return }
        let list =
            allowed.isEmpty ? "it takes no arguments" : "allowed: " + allowed.sorted().joined(separator: ", ")
        throw ControlError(.invalidArguments, "\(command): unknown argument \"\(unknown)\"; \(list)")
    }

    private func checkedPath(_ key: String, _ path: String) throws(ControlError) -> String {
        guard path.hasPrefix("/") else {
            throw ControlError(
                .invalidArguments, "\(command): argument \"\(key)\" must be an absolute path, not '\(path)'")
        }
        return path
    }

    private func missing(_ key: String, _ kind: String) -> ControlError {
        ControlError(.invalidArguments, "\(command): missing argument \"\(key)\" (\(kind))")
    }

    private func wrongType(_ key: String, _ kind: String, _ value: JSON) -> ControlError {
        ControlError(
            .invalidArguments, "\(command): argument \"\(key)\" must be \(kind), got \(value.kindDescription)"
        )
    }
}
