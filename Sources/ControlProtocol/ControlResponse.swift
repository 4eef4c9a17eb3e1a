/// The answer to one request: `{"id", "ok": true, "result"}` or
/// `{"id", "ok": false, "error": {"code", "message"}}`.
public enum ControlResponse: Sendable, Hashable {
    case success(id: JSON, result: JSON)
    case failure(id: JSON, error: ControlError)

    /// The request ID this answers.
    public var id: JSON {
        switch self {
        case .success(let id, _), .failure(let id, _): return id
        }
    }

    /// The response as a JSON object.
    public var json: JSON {
        switch self {
        case .success(let id, let result): return ["id": id, "ok": true, "result": result]
        case .failure(let id, let error): return ["id": id, "ok": false, "error": error.json]
        }
    }

    /// Reads a response object back; nil when the value is not one.
    public init?(json: JSON) {
        guard let ok = json["ok"]?.boolValue else { return nil }
        let id = json["id"] ?? .null
        if ok {
            self = .success(id: id, result: json["result"] ?? .null)
        } else {
            guard let errorJSON = json["error"], let error = ControlError(json: errorJSON) else { return nil }
            self = .failure(id: id, error: error)
        }
    }
}
