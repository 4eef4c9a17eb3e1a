/// One setting of the config file: its key, default, the values it takes, and how it
/// changes `DaemonSettings`.
///
/// The table of these is the single source for parsing the file, the flags, the
/// "allowed settings" in errors, and the test that checks `config/peershared.conf`.
struct Setting: Sendable {
    let key: String
    /// The default as the sample config writes it.
    let defaultValue: String
    /// What values are allowed, as an error message says it.
    let allowed: String
    /// Applies a value; false when the value is not allowed.
    let apply: @Sendable (inout DaemonSettings, String, SettingContext) -> Bool
}

/// What a setting's value is read relative to.
struct SettingContext: Sendable {
    /// The home directory, for values starting with `~/`.
    let home: String
    /// The directory relative paths are resolved against: the working directory for
    /// flags; nil in the config file, where a relative path is refused.
    let relativeBase: String?

    /// An absolute path for `value`, or nil when it cannot be made one.
    func path(_ value: String) -> String? {
        if value.hasPrefix("/") { return value }
        if value == "~" { return home }
        if value.hasPrefix("~/") { return home + value.dropFirst() }
        guard !value.isEmpty, let base = relativeBase else { return nil }
        return base + "/" + value
    }
}
