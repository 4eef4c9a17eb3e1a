/// The actions one event produces, in order; consecutive frames are gathered into one send
/// so that the driver writes them in one go.
struct SessionOutput: Sendable {
    private(set) var actions: [SessionAction] = []
    private(set) var sentFrames = false

    mutating func send(_ frame: Frame) {
        sentFrames = true
        if case .send(var frames) = actions.last {
            frames.append(frame)
            actions[actions.count - 1] = .send(frames)
        } else {
            actions.append(.send([frame]))
        }
    }

    mutating func send(_ message: some WireMessage) { send(message.frame()) }

    mutating func append(_ action: SessionAction) { actions.append(action) }

    mutating func log(_ level: SessionLogLevel, _ message: String) { actions.append(.log(level, message)) }

    mutating func notify(_ notice: SessionNotice) { actions.append(.notify(notice)) }

    /// Takes the gathered actions, leaving the output empty.
    mutating func take() -> [SessionAction] {
        defer {
            actions = []
            sentFrames = false
        }
        return actions
    }
}

/// The peer broke the protocol; the session closes with this text.
struct ProtocolViolation: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}
