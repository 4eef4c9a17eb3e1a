import FoundationEssentials
import Glibc

/// Where `peershared` keeps its state and control socket when not told otherwise.
///
/// Shared by the daemon and the CLI so that `peershare` finds the socket a default
/// `peershared` creates. Follows systemd (`$STATE_DIRECTORY`, `$RUNTIME_DIRECTORY`,
/// `$CONFIGURATION_DIRECTORY`) first, then XDG, then `$HOME`.
public struct PeerSharePaths: Sendable {
    /// The control socket's file name inside its directory.
    public static let socketFileName = "peershared.sock"
    /// The config file's name inside its directory.
    public static let configFileName = "peershared.conf"

    public let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// `$STATE_DIRECTORY`, else `$XDG_STATE_HOME/peershare`, else `~/.local/state/peershare`.
    public var stateDirectory: String {
        if let given = firstEntry("STATE_DIRECTORY") { return given }
        if let xdg = absolute("XDG_STATE_HOME") { return xdg + "/peershare" }
        return home + "/.local/state/peershare"
    }

    /// `$RUNTIME_DIRECTORY`, else `$XDG_RUNTIME_DIR/peershare`, else the state directory;
    /// then `peershared.sock`.
    public func controlSocket(stateDirectory: String) -> String {
        if let given = firstEntry("RUNTIME_DIRECTORY") { return given + "/" + Self.socketFileName }
        if let xdg = absolute("XDG_RUNTIME_DIR") { return xdg + "/peershare/" + Self.socketFileName }
        return stateDirectory + "/" + Self.socketFileName
    }

    /// The control socket for the default state directory.
    public var controlSocket: String { controlSocket(stateDirectory: stateDirectory) }

    /// `$CONFIGURATION_DIRECTORY/peershared.conf`, else `$XDG_CONFIG_HOME/peershare/…`,
    /// else `~/.config/peershare/…`. Read only when it exists.
    public var configFile: String {
        if let given = firstEntry("CONFIGURATION_DIRECTORY") { return given + "/" + Self.configFileName }
        if let xdg = absolute("XDG_CONFIG_HOME") { return xdg + "/peershare/" + Self.configFileName }
        return home + "/.config/peershare/" + Self.configFileName
    }

    /// `$HOME`, else the password database's home directory, else `/`.
    public var home: String {
        if let value = absolute("HOME") { return value }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
        let path = String(cString: directory)
        return path.hasPrefix("/") ? path : "/"
    }

    /// systemd passes several directories colon-separated; the first is ours.
    private func firstEntry(_ name: String) -> String? {
        guard let value = environment[name] else { return nil }
        let first = String(value.split(separator: ":").first ?? "")
        return first.hasPrefix("/") ? first : nil
    }

    /// XDG says relative values are invalid and must be ignored.
    private func absolute(_ name: String) -> String? {
        guard let value = environment[name], value.hasPrefix("/") else { return nil }
        return value
    }
}
