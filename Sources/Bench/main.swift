import Foundation
import Replication
import Store

// peershare-bench: figures of SPEC §11 — store level (apply rate, dedup of 100,000 tags, with
// the raw SQLite insert rate of the same rows as the reference) and replication over TLS
// (latency, initial sync, 1 GB of photo data). Run by scripts/bench.
// `--only=apply,dedup,signature,delta,raw,replication,latency,initial,bulk,thumbnails` runs some parts
// (for profiling). `thumbnails` is the thumbnail rate of SPEC §14.
// `--fill-state=DIR --photos=N` and `--fill-share=DIR --zone=ZONE [--photos=N] [--tags=T]
// [--set-photos=K]` fill a daemon's state directory for scripts/bench-daemon.py (FillLibrary,
// FillShare).

let arguments = CommandLine.arguments.dropFirst()
/// The parts `--only=` names, in the order they run.
let partNames = [
    "apply", "dedup", "signature", "thumbnails", "delta", "raw", "replication", "latency", "initial", "bulk",
]
let optionNames = [
    "--only=", "--runs=", "--markdown=", "--fill-share=", "--fill-state=", "--zone=", "--photos=", "--tags=",
    "--set-photos=",
]
/// Says what was wrong with the command line and ends with status 2.
func usageError(_ message: String) -> Never {
    FileHandle.standardError.write(Data("peershare-bench: \(message)\n".utf8))
    exit(2)
}
// A mistyped option (or `--help`) would otherwise run every part: ten minutes and more.
for argument in arguments where !optionNames.contains(where: { argument.hasPrefix($0) }) {
    usageError(
        "unknown argument \(argument); the options are \(optionNames.map { $0 + "…" }.joined(separator: " ")) "
            + "(Sources/Bench/main.swift)")
}
/// The parts `--only=` asked for (nil: every part).
let only = arguments.first(where: { $0.hasPrefix("--only=") }).map {
    Set($0.dropFirst(7).split(separator: ",").map(String.init))
}
for name in only ?? [] where !partNames.contains(name) {
    usageError("unknown part \(name) in --only; the parts are \(partNames.joined(separator: ", "))")
}
func intArgument(_ name: String, _ fallback: Int) -> Int {
    Int(arguments.first(where: { $0.hasPrefix("--\(name)=") })?.dropFirst(name.count + 3) ?? "") ?? fallback
}
if let state = arguments.first(where: { $0.hasPrefix("--fill-share=") })?.dropFirst(13) {
    guard let zone = arguments.first(where: { $0.hasPrefix("--zone=") })?.dropFirst(7) else {
        fatalError("--fill-share=STATE needs --zone=ZONE: the share the daemon of STATE owns")
    }
    try FillShare.run(
        state: String(state), zone: String(zone), photos: intArgument("photos", 100_000),
        tags: intArgument("tags", 1_000), setPhotos: intArgument("set-photos", 1))
    exit(0)
}
if let state = arguments.first(where: { $0.hasPrefix("--fill-state=") })?.dropFirst(13) {
    try FillLibrary.run(state: String(state), photos: intArgument("photos", 100_000))
    exit(0)
}
let runs = Int(arguments.first(where: { $0.hasPrefix("--runs=") })?.dropFirst(7) ?? "") ?? 3
var results: [BenchResult] = []
// Scratch directories are removed when every run is done, not after each: on ext4 without a
// journal (this machine's root), creating files near thousands just deleted costs up to
// 0.8 ms each, so one run's clean-up would slow the next run's initial sync (measured:
// 0.43, 0.58, 0.75, 1.00 s for four runs in a row that each cleaned up).
var scratches: [String] = []
defer { for scratch in scratches { try? FileManager.default.removeItem(atPath: scratch) } }
for run in 1...runs {
    let scratch = NSTemporaryDirectory() + "peershare-bench-\(getpid())-\(run)"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    scratches.append(scratch)
    func wanted(_ part: String) -> Bool {
        precondition(partNames.contains(part), "part \(part) is missing from partNames")
        return only?.contains(part) ?? true
    }
    // Each part starts with the disk written out: the 1 GB part, or the apply part's WAL,
    // left the kernel writing back for seconds into the part after it (dedup took 0.55 s in
    // a full run, 0.43 s alone). What a part writes itself stays inside its own figure.
    func starting(_ part: String) -> Bool {
        guard wanted(part) else { return false }
        sync()
        return true
    }
    if starting("apply") {
        results.append(contentsOf: try ApplyBench(directory: scratch + "/apply").run())
    }
    if starting("dedup") {
        results.append(contentsOf: try DedupBench(directory: scratch + "/dedup").run())
    }
    if starting("signature") {
        results.append(contentsOf: try SignatureBench(directory: scratch + "/signature").run())
    }
    if starting("thumbnails") {
        let samples = NSTemporaryDirectory() + "peershare-bench-\(getpid())-thumbnail-samples"
        if run == 1 { scratches.append(samples) }
        results.append(contentsOf: try ThumbnailBench(samples: samples).run())
    }
    if starting("delta") {
        results.append(contentsOf: try DeltaBench(directory: scratch + "/delta", photos: 100_000).run())
    }
    if starting("raw") {
        results.append(contentsOf: try RawInsertBench(directory: scratch + "/raw").run())
        results.append(contentsOf: try LayoutInsertBench(directory: scratch + "/layout").run())
    }
    let replicationParts: Set<String> = ["latency", "initial", "bulk"]
    let parts = wanted("replication") ? replicationParts : replicationParts.filter(wanted)
    if !parts.isEmpty {
        sync()
        results.append(
            contentsOf: try ReplicationBench(directory: scratch + "/replication", parts: parts).run())
    }
}
let report = BenchReport(results: results)
print(report.table())
if let out = arguments.first(where: { $0.hasPrefix("--markdown=") })?.dropFirst(11) {
    try report.markdown().write(toFile: String(out), atomically: true, encoding: .utf8)
    print("wrote \(out)")
}
