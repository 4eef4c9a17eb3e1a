import FoundationEssentials

/// Something that happened in the daemon, as `watch` streams it (or, for a long request
/// made with `"progress": true`, how far it has got, before its response).
///
/// On the wire an event follows the `watch` request's acknowledgement as
/// `{"id": <request id>, "event": {"type", "time", "data"}}`, one per line. `type` is
/// a name (`history`, `daemon.reloaded`, `progress`, …) that clients filter on.
public struct ControlEvent: Sendable, Hashable {
    public var type: String
    public var time: Date
    public var data: JSON

    public init(type: String, time: Date = Date(), data: JSON = [:]) {
        self.type = type
        self.time = time
        self.data = data
    }

    /// The `{"type", "time", "data"}` object; `time` is ISO 8601 UTC with milliseconds.
    public var json: JSON {
        ["type": .string(type), "time": .string(JSONTime.string(time)), "data": data]
    }

    /// Reads an event object back; nil when the shape is wrong.
    public init?(json: JSON) {
        guard let type = json["type"]?.stringValue, let timeText = json["time"]?.stringValue else {
            return nil
        }
        guard let time = JSONTime.date(timeText) else { return nil }
        self.init(type: type, time: time, data: json["data"] ?? [:])
    }

    /// The line a server writes for this event on the stream opened by request `id`.
    public func streamLine(requestID id: JSON) -> JSON {
        ["id": id, "event": json]
    }
}
