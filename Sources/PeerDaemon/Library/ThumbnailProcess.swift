import Foundation
import Support

/// Makes one thumbnail by running `peershare-thumbnailer` (installed beside `peershared`):
/// the image decoders run in that short-lived process, never in the daemon, so a hostile or
/// damaged file can crash, hang or bloat only it (it is killed after `timeout` or when it
/// writes more than a thumbnail may be), and the daemon does not carry libvips and the
/// hundred libraries it loads.
struct ThumbnailProcess: Sendable {
    /// Why no thumbnail came out, as the runner decides on it.
    enum Failure: Error, Equatable {
        /// Not an image thumbnails are made of, or one that does not decode: no retry helps.
        case notAnImage(String)
        /// The data file could not be opened.
        case unreadable(String)
        /// The thumbnailer is missing, crashed, hung or failed otherwise: a later run may do.
        case failed(String)
    }

    static let executableName = "peershare-thumbnailer"

    let executable: String
    let maxBytes: Int
    var timeout: Duration = .seconds(120)

    /// The thumbnailer beside this daemon's own executable.
    static func besideDaemon(maxBytes: Int) -> ThumbnailProcess {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let directory = (own as NSString).deletingLastPathComponent
        return ThumbnailProcess(executable: directory + "/" + executableName, maxBytes: maxBytes)
    }

    func thumbnail(ofFile path: String) throws(Failure) -> [UInt8] {
        guard access(executable, X_OK) == 0 else {
            throw .failed("\(executable) is missing or not executable: install it beside peershared")
        }
        let output: ProcessOutput
        do {
            output = try BoundedProcess.run(executable, [path], maxOutputBytes: maxBytes, timeout: timeout)
        } catch {
            throw .failed("cannot run \(executable): \(error)")
        }
        let reason = output.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        if output.timedOut {
            throw .failed("\(Self.executableName) took longer than \(timeout) and was killed")
        }
        if output.tooLarge {
            throw .notAnImage("the thumbnail would be over \(maxBytes) bytes (max_thumbnail_bytes)")
        }
        switch output.status {
        case 0 where !output.stdout.isEmpty: return output.stdout
        case ThumbnailerExit.notAnImage: throw .notAnImage(reason)
        case ThumbnailerExit.unreadable: throw .unreadable(reason)
        default:
            throw .failed(
                "\(Self.executableName) ended with status \(output.status): \(reason.isEmpty ? "no reason given" : reason)"
            )
        }
    }
}
