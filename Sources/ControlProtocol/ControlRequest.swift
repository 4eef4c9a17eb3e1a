import Foundation

/// One request line: `{"id": <any>, "command": "name", "args": {...}}`.
///
/// The client picks `id` (any JSON value) and gets it back in the response, so it can
/// pipeline requests; `args` is optional and defaults to `{}`.
public struct ControlRequest: Sendable, Hashable {
    public var id: JSON
    public var command: String
    public var args: [String: JSON]

    public init(id: JSON, command: String, args: [String: JSON] = [:]) {
        self.id = id
        self.command = command
        self.args = args
    }

    /// The deepest nesting of arrays and objects a request line may have.
    public static let maximumNesting = 32

    /// The request as a JSON object.
    public var json: JSON {
        ["id": id, "command": .string(command), "args": .object(args)]
    }

    /// Parses a request line; on failure, the error carries whatever `id` could be read so
    /// the error response still reaches the right caller.
    public init(line: Data) throws(ControlRequestError) {
        // Parsing time grows with the cube of the nesting depth: a line of a kilobyte nested
        // five hundred deep took the daemon seconds. No request needs more than a few levels.
        guard JSONLine.nestingDepth(of: line) <= Self.maximumNesting else {
            throw ControlRequestError(
                id: .null,
                error: ControlError(
                    .invalidJSON,
                    "the request line nests arrays and objects deeper than \(Self.maximumNesting) levels: "
                        + "no request needs that many"))
        }
        guard let value = JSONLine.decode(line) else {
            throw ControlRequestError(
                id: .null,
                error: ControlError(
                    .invalidJSON,
                    "the request line is not valid JSON: send one JSON object per line, "
                        + #"such as {"id": 1, "command": "ping"}"#))
        }
        guard case .object(let members) = value else {
            throw ControlRequestError(
                id: .null,
                error: ControlError(
                    .invalidRequest,
                    "a request must be a JSON object with a \"command\" member, got \(value.kindDescription)")
            )
        }
        let id = members["id"] ?? .null
        guard let command = members["command"]?.stringValue, !command.isEmpty else {
            throw ControlRequestError(
                id: id,
                error: ControlError(
                    .invalidRequest, "the request has no \"command\" string: name the command to run"))
        }
        var args: [String: JSON] = [:]
        switch members["args"] {
        case nil, .null?: break
        case .object(let given)?: args = given
        case let other?:
            throw ControlRequestError(
                id: id,
                error: ControlError(
                    .invalidRequest, "\"args\" must be a JSON object, got \(other.kindDescription)"))
        }
        self.init(id: id, command: command, args: args)
    }
}

/// Why a request line was refused, with the `id` to answer to.
public struct ControlRequestError: Error, Sendable {
    public let id: JSON
    public let error: ControlError
}
