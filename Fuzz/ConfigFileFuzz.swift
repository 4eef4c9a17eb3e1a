import Foundation
import Glibc

// libFuzzer target: the config file parser (Sources/PeerDaemon/Config: ConfigFile and
// SettingsLoader with the settings table). Each input is written to a file that
// `peershared --config FILE` would read; loading it succeeds or throws a ConfigError whose
// message names the file, never crashes. A file that loads loads again to the same
// settings.

/// A directory of this process, on tmpfs when there is one (rewriting a file on this
/// machine's disk costs milliseconds); removed when the process exits.
private let directory: String = {
    let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : FileManager.default.temporaryDirectory.path
    let directory = base + "/peershare-fuzz-config-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: ownDirectory()) }
    return directory
}()

private func ownDirectory() -> String { directory }

private let path = directory + "/peershared.conf"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard (try? bytes.write(to: URL(fileURLWithPath: path))) != nil else { fatalError("cannot write \(path)") }
    let loader: SettingsLoader
    do {
        loader = SettingsLoader(
            arguments: try DaemonArguments.parse(["--config", path]),
            environment: ["HOME": "/home/fuzz"], workingDirectory: "/")
    } catch {
        fatalError("the arguments do not parse: \(error)")
    }
    do {
        let settings = try loader.load()
        guard (try? loader.load()) == settings else { fatalError("loading twice differs") }
    } catch {
        guard "\(error)".contains(path) else { fatalError("a config error that does not name the file: \(error)") }
    }
    return 0
}
