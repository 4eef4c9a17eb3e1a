import Store

// libFuzzer target: the share URL parser (Sources/Replication/Sharing/ShareURL.swift). Any
// text parses or is refused with a ShareURLError; a URL that parses prints as a URL that
// parses to the same value.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzShareURL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let url = try? ShareURL(parsing: text) else { return 0 }
    let printed = url.description
    guard let again = try? ShareURL(parsing: printed) else {
        fatalError("the printed form of a parsed URL does not parse: \(printed)")
    }
    guard again == url else { fatalError("a URL changed when printed and parsed again: \(printed)") }
    return 0
}
