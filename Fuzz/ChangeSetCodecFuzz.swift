import Store

// libFuzzer target: the change-set codec (Sources/Replication/Changes/ChangeSetCodec.swift).
// Any input must decode to a change set or fail with a WireError, never crash; a decoded
// set must encode to bytes that decode back to a set with the same encoding.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChangeSetCodec(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let set = try? ChangeSetCodec.decode(bytes) else { return 0 }
    let encoded = ChangeSetCodec.encode(set)
    let again: ChangeSet
    do {
        again = try ChangeSetCodec.decode(encoded)
    } catch {
        fatalError("a decoded change set does not decode after encoding: \(error)")
    }
    guard ChangeSetCodec.encode(again) == encoded, again.zone == set.zone, again.since == set.since,
        again.until == set.until, again.objects.count == set.objects.count
    else { fatalError("a change set changed on the way through the codec") }
    return 0
}
