import ControlProtocol
import FoundationEssentials
import Glibc

/// Builds `DaemonSettings` from defaults, the config file and the command line, in that
/// order; `reload()` runs the same steps again for SIGHUP.
struct SettingsLoader: Sendable {
    let arguments: DaemonArguments
    let environment: [String: String]
    let workingDirectory: String

    private var paths: PeerSharePaths { PeerSharePaths(environment: environment) }

    /// The config file read: `--config`, else the default one when it exists.
    var configFile: String? {
        if let given = arguments.configFile {
            return SettingContext(home: paths.home, relativeBase: workingDirectory).path(given) ?? given
        }
        let fallback = paths.configFile
        return FileManager.default.fileExists(atPath: fallback) ? fallback : nil
    }

    func load() throws(ConfigError) -> DaemonSettings {
        var settings = DaemonSettings(stateDirectory: paths.stateDirectory, controlSocket: "")
        var socketGiven = false
        if let path = configFile {
            let file = try ConfigFile.read(path: path)
            let context = SettingContext(home: paths.home, relativeBase: nil)
            for entry in file.entries {
                guard let setting = SettingsTable.named(entry.key) else {
                    throw .unknownKey(path: path, line: entry.line, key: entry.key)
                }
                guard setting.apply(&settings, entry.value, context) else {
                    throw .badValue(
                        source: "\(path):\(entry.line)", key: entry.key, value: entry.value,
                        allowed: setting.allowed)
                }
                socketGiven = socketGiven || entry.key == "control_socket"
            }
        }
        let context = SettingContext(home: paths.home, relativeBase: workingDirectory)
        for override in arguments.overrides {
            guard let setting = SettingsTable.named(override.key),
                setting.apply(&settings, override.value, context)
            else {
                let allowed = SettingsTable.named(override.key)?.allowed ?? "a valid value"
                throw .badValue(
                    source: override.flag, key: override.key, value: override.value, allowed: allowed)
            }
            socketGiven = socketGiven || override.key == "control_socket"
        }
        if !socketGiven {
            settings.controlSocket = paths.controlSocket(stateDirectory: settings.stateDirectory)
        }
        return settings
    }
}
