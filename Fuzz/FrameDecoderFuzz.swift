import Store

// libFuzzer target: the frame decoder (Sources/Replication/Wire/FrameDecoder.swift) and
// every message decoder behind it (PeerMessage, hello, sharing messages), and the local
// discovery datagram (the whole stream read as one).
//
// The first input byte picks a chunk size; the rest is a byte stream fed to a decoder in
// chunks of that size. Checked: decoding in chunks gives the same frames and the same error
// as decoding the whole stream at once; the frames re-encode to exactly the bytes they came
// from; every message that decodes re-encodes to a frame that decodes to the same encoding.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let chunk = Int(data[0]) % 64 + 1
    let stream = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let maximum = 1 << 16
    let whole = decodeFrames(stream, chunk: max(stream.count, 1), maximumFrameSize: maximum)
    let chunked = decodeFrames(stream, chunk: chunk, maximumFrameSize: maximum)
    guard whole.frames == chunked.frames, whole.error == chunked.error else {
        fatalError("chunked decoding differs from whole decoding")
    }
    var reencoded: [UInt8] = []
    for frame in whole.frames {
        guard let bytes = try? frame.encoded(maximumFrameSize: maximum) else {
            fatalError("a decoded frame does not encode")
        }
        reencoded += bytes
        checkMessage(in: frame)
    }
    guard stream.starts(with: reencoded) else { fatalError("frames re-encode to other bytes") }
    if let packet = try? DiscoveryPacket(decoding: stream) {
        guard packet.encoded == stream else { fatalError("a discovery packet re-encodes to other bytes") }
    }
    return 0
}

private func decodeFrames(
    _ stream: [UInt8], chunk: Int, maximumFrameSize: Int
) -> (frames: [Frame], error: WireError?) {
    var decoder = FrameDecoder(maximumFrameSize: maximumFrameSize)
    var frames: [Frame] = []
    var offset = 0
    repeat {
        let end = min(offset + chunk, stream.count)
        decoder.feed(stream[offset..<end])
        offset = end
        while true {
            do {
                guard case .frame(let frame) = try decoder.next() else { break }
                frames.append(frame)
            } catch {
                return (frames, error)
            }
        }
    } while offset < stream.count
    return (frames, nil)
}

private func checkMessage(in frame: Frame) {
    if let message = try? PeerMessage(frame: frame) {
        let encoded = try? message.frame().encoded()
        guard let again = try? PeerMessage(frame: message.frame()), (try? again.frame().encoded()) == encoded
        else { fatalError("message \(frame.type) changed on the way through its codec") }
    }
    if frame.type == .hello, let hello = try? Hello(frame: frame) {
        guard (try? Hello(frame: hello.frame())) == hello else { fatalError("hello changed") }
    }
    if let request = try? JoinRequest(frame: frame) {
        guard (try? JoinRequest(frame: request.frame)) == request else { fatalError("join request changed") }
    }
    if let response = try? JoinResponse(frame: frame) {
        guard (try? JoinResponse(frame: response.frame)) == response else {
            fatalError("join response changed")
        }
    }
    if let notice = try? ZoneNotice(frame: frame) {
        guard (try? ZoneNotice(frame: notice.frame)) == notice else { fatalError("zone notice changed") }
    }
    if let request = try? LinkRequest(frame: frame) {
        guard (try? LinkRequest(frame: request.frame)) == request else { fatalError("link request changed") }
    }
    if let response = try? LinkResponse(frame: frame) {
        guard (try? LinkResponse(frame: response.frame)) == response else { fatalError("link response changed") }
    }
    if let zones = try? SiblingZonesMessage(frame: frame) {
        guard (try? SiblingZonesMessage(frame: zones.frame())) == zones else { fatalError("sibling zones changed") }
    }
}
