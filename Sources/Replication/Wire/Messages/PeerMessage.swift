/// Every message a peer may send after the hello, decoded from one frame.
///
/// The session switches over this instead of over raw frame types, so an unknown or
/// malformed frame is refused in one place.
public enum PeerMessage: Equatable, Sendable {
    case zoneClocks(ZoneClocks)
    case changeSet(ChangeSetMessage)
    case ack(ChangeSetAck)
    case notReady(ChangeSetNotReady)
    case dataRequest(DataRequest)
    case dataChunk(DataChunk)
    case dataError(DataError)
    case dataAvailable(DataAvailable)
    case ping(Ping)
    case pong(Pong)
    case error(ErrorMessage)
    case changesRefused(ChangesRefused)
    case addresses(Addresses)
    case deviceList(DeviceListMessage)
    case membershipOperations(MembershipOperationsMessage)
    case setVector(SetVectorMessage)
    case signedSets(SignedSetsMessage)
    case setsTaken(SetsTakenMessage)
    case neighbours(NeighboursMessage)
    case addressRecords(AddressRecordsMessage)

    /// Decodes `frame`; a hello or a type this build does not know is an unexpected message.
    public init(frame: Frame, limits: MessageLimits = MessageLimits()) throws(WireError) {
        switch frame.type {
        case .zoneClocks: self = .zoneClocks(try ZoneClocks(frame: frame, limits: limits))
        case .changeSet: self = .changeSet(try ChangeSetMessage(frame: frame, limits: limits))
        case .changeSetAck: self = .ack(try ChangeSetAck(frame: frame, limits: limits))
        case .changeSetNotReady: self = .notReady(try ChangeSetNotReady(frame: frame, limits: limits))
        case .dataRequest: self = .dataRequest(try DataRequest(frame: frame, limits: limits))
        case .dataChunk: self = .dataChunk(try DataChunk(frame: frame, limits: limits))
        case .dataError: self = .dataError(try DataError(frame: frame, limits: limits))
        case .dataAvailable: self = .dataAvailable(try DataAvailable(frame: frame, limits: limits))
        case .ping: self = .ping(try Ping(frame: frame, limits: limits))
        case .pong: self = .pong(try Pong(frame: frame, limits: limits))
        case .error: self = .error(try ErrorMessage(frame: frame, limits: limits))
        case .changesRefused: self = .changesRefused(try ChangesRefused(frame: frame, limits: limits))
        case .addresses: self = .addresses(try Addresses(frame: frame, limits: limits))
        case .deviceList: self = .deviceList(try DeviceListMessage(frame: frame, limits: limits))
        case .membershipOperations:
            self = .membershipOperations(try MembershipOperationsMessage(frame: frame, limits: limits))
        case .setVector: self = .setVector(try SetVectorMessage(frame: frame, limits: limits))
        case .signedSets: self = .signedSets(try SignedSetsMessage(frame: frame, limits: limits))
        case .setsTaken: self = .setsTaken(try SetsTakenMessage(frame: frame, limits: limits))
        case .neighbours: self = .neighbours(try NeighboursMessage(frame: frame, limits: limits))
        case .addressRecords: self = .addressRecords(try AddressRecordsMessage(frame: frame, limits: limits))
        default: throw .unexpectedMessage(type: frame.type.rawValue, expected: "a replication message")
        }
    }

    /// The message as one frame.
    public func frame() -> Frame {
        switch self {
        case .zoneClocks(let message): return message.frame()
        case .changeSet(let message): return message.frame()
        case .ack(let message): return message.frame()
        case .notReady(let message): return message.frame()
        case .dataRequest(let message): return message.frame()
        case .dataChunk(let message): return message.frame()
        case .dataError(let message): return message.frame()
        case .dataAvailable(let message): return message.frame()
        case .ping(let message): return message.frame()
        case .pong(let message): return message.frame()
        case .error(let message): return message.frame()
        case .changesRefused(let message): return message.frame()
        case .addresses(let message): return message.frame()
        case .deviceList(let message): return message.frame()
        case .membershipOperations(let message): return message.frame()
        case .setVector(let message): return message.frame()
        case .signedSets(let message): return message.frame()
        case .setsTaken(let message): return message.frame()
        case .neighbours(let message): return message.frame()
        case .addressRecords(let message): return message.frame()
        }
    }
}
