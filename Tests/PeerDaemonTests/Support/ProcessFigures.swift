import Foundation
import TestSupport

/// What /proc says about a process: its thread count and resident memory.
struct ProcessFigures: CustomStringConvertible {
    let threads: Int
    /// VmRSS, in KiB.
    let residentKiB: Int

    /// Reads /proc/PID/status.
    init(pid: Int32) throws {
        let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func field(_ name: String) throws -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
                let value = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first,
                let number = Int(value)
            else { throw HarnessError("no \(name) in /proc/\(pid)/status") }
            return number
        }
        threads = try field("Threads")
        residentKiB = try field("VmRSS")
    }

    var description: String { "\(threads) threads, \(residentKiB / 1024) MiB resident" }
}
