import Glibc

/// Path questions the daemon asks, without Foundation's `NSString` path methods (the daemon's
/// modules link FoundationEssentials only).
public enum FilePaths {
    /// The directory part of `path`, as `NSString.deletingLastPathComponent` gives it:
    /// `/a/b` → `/a`, `/a` → `/`, `a` → `` (trailing slashes ignored).
    public static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    /// Whether `path` names a directory (following links).
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
