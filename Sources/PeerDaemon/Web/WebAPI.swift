import ControlProtocol
import FoundationEssentials
import Glibc
import Store
import Support

/// The gallery's API: `POST /api/COMMAND` with the control protocol's arguments as a JSON
/// object, answered by the same handler a `peershare` command reaches, with the same result.
///
/// Only the commands a gallery needs are served: reading the library, tags, ratings and
/// shares, and the edits the pages make. Nothing that reads or writes files by path, links
/// devices, changes the daemon or stops it is reachable from a browser. What the gallery
/// commits is recorded in history as written by `local:gallery`.
struct WebAPI: Sendable {
    static let reads: Set<String> = [
        "id", "status", "photo.list", "photo.show", "tag.list", "rating.list", "share.list", "share.show",
        "device.list", "peers",
    ]
    static let writes: Set<String> = [
        "photo.rename", "tag.add", "tag.remove", "tag.toggle", "rate", "rating.delete", "share.create",
        "share.add", "share.set", "share.invite", "share.permission", "share.remove", "share.stop",
        "share.leave", "share.approve", "share.deny", "share.dismiss", "accept",
    ]
    /// The author history records for what the gallery writes.
    static let author = "gallery"

    let routes: ControlRoutes
    let logger: Logger

    func call(_ name: String, body: [UInt8]) -> WebResponse {
        guard Self.reads.contains(name) || Self.writes.contains(name), let entry = routes.entry(name),
            case .unary(let handler) = entry.route
        else {
            return .failure(
                ControlError(.unknownCommand, "the gallery has no command '\(name)'"), status: 404)
        }
        let values: [String: JSON]
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            values = [:]
        } else {
            // As on the control socket: parsing time grows with the cube of the nesting depth.
            guard JSONLine.nestingDepth(of: Data(body)) <= ControlRequest.maximumNesting else {
                return .failure(
                    ControlError(
                        .invalidRequest,
                        "\(name): the body nests arrays and objects deeper than \(ControlRequest.maximumNesting) levels"
                    ),
                    status: 400)
            }
            guard let json = JSONLine.decode(Data(body)), case .object(let object) = json else {
                return .failure(
                    ControlError(.invalidRequest, "\(name): the body must be a JSON object of arguments"),
                    status: 400)
            }
            values = object
        }
        do {
            let result = try ClientAuthorContext.$name.withValue(Self.author) {
                try handler(try ControlArguments(command: entry.command, values: values))
            }
            return .json(["ok": true, "result": result])
        } catch {
            let typed = ControlRoutes.controlError(error, command: name, logger: logger)
            return .failure(typed, status: Self.status(of: typed))
        }
    }

    /// The HTTP status of an error response: the client's mistake, something missing, or ours.
    static func status(of error: ControlError) -> Int {
        switch error.code {
        case .internalError: return 500
        case .permissionDenied: return 403
        case .shuttingDown: return 503
        default: return error.code.rawValue == "not_found" ? 404 : 400
        }
    }
}
