// libFuzzer target: signed change sets (Sources/Replication/SignedSets). Any input must
// decode to a signed set (or a header kept alone) or fail with a SignedSetError, never
// crash; decoding is strict, so what decodes encodes back to exactly the input.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSignedChangeSet(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let set = try? SignedChangeSet(decoding: bytes, maximumBodyBytes: 1 << 20) {
        guard set.encoded == bytes else { fatalError("a decoded signed set encodes to other bytes") }
        guard set.header.seq >= 1, set.body.count == set.header.bodyLength else {
            fatalError("a decoded signed set breaks its own header")
        }
    }
    if let header = try? SignedSetHeader(decoding: bytes) {
        guard header.encoded == bytes else { fatalError("a decoded header encodes to other bytes") }
    }
    return 0
}
