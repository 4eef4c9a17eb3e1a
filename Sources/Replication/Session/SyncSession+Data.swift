/// Serving photo data to the peer, and telling it when data it lacked has arrived here.
extension SyncSession {
    mutating func dataRead(_ request: DataRequest, _ result: DataReadResult) {
        guard pendingReads.first == request else {
            out.log(.error, "a data read for \(request.hash.short) matches no request received")
            return
        }
        pendingReads.removeFirst()
        switch result {
        case .bytes(let bytes, let isFinal):
            out.send(DataChunk(hash: request.hash, offset: request.offset, isFinal: isFinal, bytes: bytes))
            out.notify(.dataServed(request.hash, count: bytes.count))
        case .refused(let reason, let message):
            if reason == .unavailable { waitingForData.insert(request.hash) }
            out.send(DataError(hash: request.hash, reason: reason, message: message))
        }
    }

    mutating func dataArrived(_ hash: ContentHash) {
        fetcher.arrived(hash)
        if waitingForData.remove(hash) != nil, state == .active {
            out.send(DataAvailable(hash: hash))
        }
    }
}
