import ControlProtocol
import Foundation
import Store
import Testing

@Suite struct ControlProtocolTests {
    @Test func jsonRoundTripsAndKeepsIntegersIntegers() throws {
        let value: JSON = [
            "id": 1, "ratio": 0.5, "name": "a/b", "tags": ["x", nil, true], "nested": ["k": []],
        ]
        let text = JSONLine.string(value)
        #expect(text == #"{"id":1,"name":"a/b","nested":{"k":[]},"ratio":0.5,"tags":["x",null,true]}"#)
        #expect(JSONLine.decode(Data(text.utf8)) == value)
        #expect(JSONLine.encode("line\nbreak").last == 0x0A)
        #expect(!JSONLine.text("line\nbreak").contains(0x0A))
    }

    @Test func requestsAreParsedAndTheirErrorsKeepTheID() throws {
        let request = try ControlRequest(
            line: Data(#"{"id":"r1","command":"photo.add","args":{"name":"n"}}"#.utf8))
        #expect(request == ControlRequest(id: "r1", command: "photo.add", args: ["name": "n"]))
        #expect(try ControlRequest(line: Data(#"{"command":"ping","args":null}"#.utf8)).args == [:])
        do {
            _ = try ControlRequest(line: Data(#"{"id": 5, "command": 3}"#.utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.id == 5)
            #expect(error.error.code == .invalidRequest)
        }
    }

    @Test func aRequestNestedDeeperThanAnyNeedsIsRefusedBeforeParsing() throws {
        // Found by fuzzing: parsing time grows with the cube of the depth (a 1 KB line nested
        // 505 deep took the daemon 2.6 s).
        func nested(_ depth: Int) -> Data {
            let args = String(repeating: "[", count: depth - 2) + String(repeating: "]", count: depth - 2)
            return Data((#"{"command":"ping","args":{"a":"# + args + "}}").utf8)
        }
        #expect(JSONLine.nestingDepth(of: nested(32)) == 32)
        #expect(throws: Never.self) { try ControlRequest(line: nested(32)) }
        do {
            _ = try ControlRequest(line: nested(505))
            Issue.record("expected an error")
        } catch {
            #expect(error.error.code == .invalidJSON)
            #expect(
                error.error.message
                    == "the request line nests arrays and objects deeper than 32 levels: no request needs that many"
            )
        }
        // Brackets inside strings are text, not nesting.
        let quoted = Data(#"{"command":"ping","args":{"a":"[[[["]]]]"}}"#.utf8)
        #expect(JSONLine.nestingDepth(of: quoted) == 2)
    }

    @Test func responsesAndEventsReadBackWhatTheyWrite() throws {
        let failure = ControlResponse.failure(id: 2, error: ControlError(.unknownCommand, "nope"))
        #expect(ControlResponse(json: failure.json) == failure)
        #expect(
            failure.json == ["id": 2, "ok": false, "error": ["code": "unknown_command", "message": "nope"]])
        let event = ControlEvent(
            type: "t", time: Date(timeIntervalSince1970: 1_700_000_000.25), data: ["k": 1])
        #expect(event.json["time"] == "2023-11-14T22:13:20.250Z")
        #expect(ControlEvent(json: event.json) == event)
    }

    /// Framing must not depend on how the stream is cut into reads.
    @Test(arguments: [1, 7, 42, 1_234_567])
    func lineBufferSplitsLinesWhateverTheChunkSizes(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let lines = (0..<200).map { index in
            String(repeating: "x", count: Int.random(in: 0...80, using: &generator)) + "\(index)"
        }
        let stream = Array(lines.map { $0 + ($0.count % 3 == 0 ? "\r\n" : "\n") }.joined().utf8)
        var buffer = LineBuffer(maxLineBytes: 100)
        var output: [String] = []
        var offset = 0
        while offset < stream.count {
            let size = Int.random(in: 1...64, using: &generator)
            buffer.append(stream[offset..<min(offset + size, stream.count)])
            offset += size
            while case .line(let bytes)? = buffer.nextLine() {
                output.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        #expect(output == lines, "seed \(seed)")
        #expect(buffer.pendingByteCount == 0)
    }

    @Test func lineBufferRefusesALineOverTheCapBeforeItsNewlineArrives() {
        var buffer = LineBuffer(maxLineBytes: 4)
        buffer.append(Array("abcd\nabc".utf8))
        #expect(buffer.nextLine() == .line(Array("abcd".utf8)))
        #expect(buffer.nextLine() == nil)
        buffer.append(Array("de".utf8))
        #expect(buffer.nextLine() == .tooLong)
    }

    @Test func defaultPathsAreSharedByDaemonAndCLI() {
        let paths = PeerSharePaths(environment: ["HOME": "/h", "XDG_RUNTIME_DIR": "/run/user/1"])
        #expect(paths.stateDirectory == "/h/.local/state/peershare")
        #expect(paths.controlSocket == "/run/user/1/peershare/peershared.sock")
        #expect(paths.configFile == "/h/.config/peershare/peershared.conf")
        let systemd = PeerSharePaths(environment: [
            "HOME": "/h", "CONFIGURATION_DIRECTORY": "/h/.config/peershare",
        ])
        #expect(systemd.configFile == "/h/.config/peershare/peershared.conf")
    }
}
