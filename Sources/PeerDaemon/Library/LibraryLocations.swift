import ControlProtocol
import FoundationEssentials
import Glibc
import Support

/// The other places a PeerShare library of this account may be, so a daemon about to start
/// an empty one can say so instead of silently replacing it with a new identity.
///
/// A library moves when the state directory's default does: run by hand it is
/// `$XDG_STATE_HOME/peershare` (`~/.local/state/peershare`); an older systemd user unit put
/// it in `$STATE_DIRECTORY`, which systemd 252 maps to `~/.config/peershare`.
struct LibraryLocations: Sendable {
    let environment: [String: String]

    private var paths: PeerSharePaths { PeerSharePaths(environment: environment) }

    /// Every known state directory, in this order, without repeats: `$XDG_CONFIG_HOME/peershare`,
    /// `~/.config/peershare`, `$XDG_STATE_HOME/peershare`, `~/.local/state/peershare`,
    /// `$STATE_DIRECTORY` (its first entry).
    var known: [String] {
        let home = paths.home
        var candidates: [String] = []
        if let xdg = absolute("XDG_CONFIG_HOME") { candidates.append(xdg + "/peershare") }
        candidates.append(home + "/.config/peershare")
        if let xdg = absolute("XDG_STATE_HOME") { candidates.append(xdg + "/peershare") }
        candidates.append(home + "/.local/state/peershare")
        if let given = environment["STATE_DIRECTORY"]?.split(separator: ":").first, given.hasPrefix("/") {
            candidates.append(String(given))
        }
        var seen = Set<String>()
        return candidates.filter { seen.insert(Self.canonical($0)).inserted }
    }

    /// Where the systemd user unit keeps the library, on every systemd version:
    /// `~/.local/state/peershare`.
    var expectedUnitStateDirectory: String { paths.home + "/.local/state/peershare" }

    /// A known state directory other than `stateDirectory` that holds a library, when
    /// `stateDirectory` is itself a known one and holds none: where the person's photos and
    /// identity probably are. A state directory elsewhere (`--state-dir /tmp/try`) is a
    /// deliberate second library and is not checked.
    func libraryElsewhere(than stateDirectory: String) -> String? {
        let chosen = Self.canonical(stateDirectory)
        let others = known.filter { Self.canonical($0) != chosen }
        guard others.count < known.count, !Self.holdsAnything(stateDirectory) else { return nil }
        return others.first { Self.holdsLibrary($0) }
    }

    /// An identity and a private store: what a daemon leaves after its first start.
    static func holdsLibrary(_ directory: String) -> Bool {
        isDirectory(directory + "/identity")
            && FileManager.default.fileExists(
                atPath: LibraryStartup.directory(stateDirectory: directory) + "/private.sqlite")
    }

    /// An identity or a library directory: a state directory that is not new.
    private static func holdsAnything(_ directory: String) -> Bool {
        isDirectory(directory + "/identity")
            || isDirectory(LibraryStartup.directory(stateDirectory: directory))
    }

    private static func isDirectory(_ path: String) -> Bool { FilePaths.isDirectory(path) }

    /// The path with links resolved, so two names of one directory compare equal.
    private static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// XDG says relative values are invalid and must be ignored.
    private func absolute(_ name: String) -> String? {
        guard let value = environment[name], value.hasPrefix("/") else { return nil }
        return value
    }
}
