import Foundation

// libFuzzer target: the control request parser (Sources/ControlProtocol): bytes split into
// lines by LineBuffer, as the daemon reads its socket, each line parsed by
// ControlRequest(line:). A parsed request must survive its own encoding (the daemon echoes
// the `id` back); a refusal must encode as a response a client can read back.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var buffer = LineBuffer(maxLineBytes: 4096)
    buffer.append(UnsafeBufferPointer(start: data, count: size))
    buffer.append([0x0A])
    while let next = buffer.nextLine() {
        guard case .line(let line) = next else { break }
        check(Data(line))
    }
    return 0
}

private func check(_ line: Data) {
    do {
        let request = try ControlRequest(line: line)
        let text = JSONLine.text(request.json)
        guard let again = try? ControlRequest(line: text), JSONLine.text(again.json) == text else {
            fatalError("a request changed on the way through its encoding: \(String(decoding: text, as: UTF8.self))")
        }
    } catch {
        let response = ControlResponse.failure(id: error.id, error: error.error)
        let encoded = JSONLine.encode(response.json)
        guard let json = JSONLine.decode(encoded.dropLast()), let back = ControlResponse(json: json),
            back.id == response.id || JSONLine.text(back.id) == JSONLine.text(response.id)
        else { fatalError("a refusal does not read back as a response") }
    }
}
