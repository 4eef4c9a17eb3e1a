import Foundation

/// Finds the built `peershared` and `peershare` next to the test bundle.
///
/// `swift test` builds every product of the package into the same directory as the test
/// binary (`.build/debug/`), so the real executables are tested, not a library copy.
public enum Products {
    public static func path(_ name: String) throws -> String {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // On Linux the test binary is `.build/debug/<Package>PackageTests.xctest`; on other
        // layouts it sits inside a bundle: walk up until the product is found.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw HarnessError(
            "cannot find the \(name) executable near \(executable.path): run 'swift build' first")
    }
}
