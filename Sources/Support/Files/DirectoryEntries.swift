import Glibc

/// Reading a directory's names, the one way every module does it (blob sweeps, `photo add
/// -r`, backups).
public enum DirectoryEntries {
    /// The names in a directory, without `.` and `..`, in the order the file system gives
    /// them (none when it cannot be read).
    public static func names(of path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The names in byte order: stable whatever the locale and the file system.
    public static func sortedNames(of path: String) -> [String] {
        names(of: path).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
