import ControlProtocol
import Replication
import Store

/// Sharing failures as control errors: their code and their message, as they are.
extension AcceptError: ControlErrorConvertible {
    var controlError: ControlError { ControlError(ControlError.Code(rawValue: code), description) }
}

extension ShareURLError: ControlErrorConvertible {
    var controlError: ControlError { ControlError(ControlError.Code(rawValue: "invalid_url"), description) }
}

extension PeerIDError: ControlErrorConvertible {
    var controlError: ControlError {
        ControlError(ControlError.Code(rawValue: "invalid_peer_id"), description)
    }
}
