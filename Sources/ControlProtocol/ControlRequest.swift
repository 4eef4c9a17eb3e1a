import FoundationEssentials

/// One request line: `{"id": <any>, "command": "name", "args": {...}, "author": "name"}`.
///
/// The client picks `id` (any JSON value) and gets it back in the response, so it can
/// pipeline requests; `args` is optional and defaults to `{}`. `author`, optional, names the
/// client: the history entries the request commits are recorded as `local:NAME`
/// (`ClientAuthor`) instead of `local`.
public struct ControlRequest: Sendable, Hashable {
    public var id: JSON
    public var command: String
    public var args: [String: JSON]
    /// The client's name, checked by `ClientAuthor.check`; nil when it gives none.
    public var author: String?

    public init(id: JSON, command: String, args: [String: JSON] = [:], author: String? = nil) {
        self.id = id
        self.command = command
        self.args = args
        self.author = author
    }

    /// The deepest nesting of arrays and objects a request line may have.
    public static let maximumNesting = 32

    /// The request as a JSON object.
    public var json: JSON {
        var members: [String: JSON] = ["id": id, "command": .string(command), "args": .object(args)]
        if let author { members["author"] = .string(author) }
        return .object(members)
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
        self.init(id: id, command: command, args: args, author: try Self.author(members["author"], id: id))
    }

    /// The `author` member: absent or null for none, else a valid client name.
    private static func author(_ value: JSON?, id: JSON) throws(ControlRequestError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let name)?:
            do {
                return try ClientAuthor.check(name)
            } catch {
                throw ControlRequestError(id: id, error: error)
            }
        case let other?:
            throw ControlRequestError(
                id: id,
                error: ControlError(
                    .invalidRequest,
                    "\"author\" must be a string naming the client, got \(other.kindDescription)"))
        }
    }
}

/// Why a request line was refused, with the `id` to answer to.
public struct ControlRequestError: Error, Sendable {
    public let id: JSON
    public let error: ControlError
}
