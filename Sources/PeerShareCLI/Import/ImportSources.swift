import Glibc
import Support

/// One file `photo add` is to add: as the person named it (or as found under a directory
/// they named), where it is, and how big it is when known.
struct ImportItem: Sendable, Equatable {
    /// What the output calls it: the path as given, or under a directory as given; `-` for
    /// standard input.
    let display: String
    /// The absolute path sent to the daemon; nil for standard input.
    let path: String?
    /// Bytes, for the progress line; 0 when unknown (standard input, a missing file).
    let size: Int64
    /// Set on the second and later mention of one file (same device and inode).
    var givenTwice = false
}

/// Turns `photo add`'s operands into the files to add: a directory (only with `-r`) is
/// walked in sorted order, hidden names and anything but regular files skipped; a file
/// named twice is kept once.
struct ImportSources {
    let workingDirectory: String
    let recursive: Bool

    /// Directories walked below this depth are not entered (a link loop cannot recurse).
    static let maxDepth = 64

    func items(_ operands: [String]) throws(CLIError) -> [ImportItem] {
        var items: [ImportItem] = []
        var seen: Set<FileKey> = []
        if operands.filter({ $0 == "-" }).count > 1 {
            throw .usage("standard input ('-') can be read only once", helpCommand: "peershare photo add")
        }
        for operand in operands {
            if operand == "-" {
                items.append(ImportItem(display: "-", path: nil, size: 0))
                continue
            }
            let path = absolute(operand)
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                guard recursive else {
                    throw .usage(
                        "'\(operand)' is a directory: add -r (--recursive) to add the photos in it",
                        helpCommand: "peershare photo add")
                }
                walk(directory: path, display: operand, depth: 0, into: &items, seen: &seen)
            } else {
                // A missing or special file is sent as named: the daemon says what is wrong.
                add(path, display: operand, into: &items, seen: &seen)
            }
        }
        return items
    }

    private func walk(
        directory: String, display: String, depth: Int, into items: inout [ImportItem],
        seen: inout Set<FileKey>
    ) {
        guard depth < Self.maxDepth else { return }
        for name in DirectoryEntries.sortedNames(of: directory) where !name.hasPrefix(".") {
            let path = directory + "/" + name
            let shown = display.hasSuffix("/") ? display + name : display + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: walk(directory: path, display: shown, depth: depth + 1, into: &items, seen: &seen)
            case S_IFREG: add(path, display: shown, into: &items, seen: &seen)
            case S_IFLNK:
                // A link to a file is followed; a link to a directory is not (no loops).
                var target = stat()
                if stat(path, &target) == 0, target.st_mode & S_IFMT == S_IFREG {
                    add(path, display: shown, into: &items, seen: &seen)
                }
            default: continue
            }
        }
    }

    private func add(
        _ path: String, display: String, into items: inout [ImportItem], seen: inout Set<FileKey>
    ) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            items.append(ImportItem(display: display, path: path, size: 0))
            return
        }
        let key = FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        let first = seen.insert(key).inserted
        items.append(
            ImportItem(display: display, path: path, size: Int64(info.st_size), givenTwice: !first))
    }

    private func absolute(_ operand: String) -> String {
        operand.hasPrefix("/") ? operand : workingDirectory + "/" + operand
    }
}

/// A file's identity on disk, so two names of one file count once.
private struct FileKey: Hashable {
    let device: UInt64
    let inode: UInt64
}
