import Glibc
import Synchronization

/// Loopback ports for test daemons that must come back on the same port after a restart.
///
/// A port the kernel picked for `--listen 127.0.0.1:0` lies in its ephemeral range, where
/// every other test's port-0 bind and outgoing connection draws too: between a daemon's stop
/// and its restart, another test took the port now and then ("Address already in use"). These
/// ports come from below that range, where nothing is handed out by the kernel, and each is
/// given once per test process.
public enum TestPorts {
    private static let given = Mutex<Set<Int>>([])

    /// A port below the ephemeral range that nothing listens on now and that no other caller
    /// of this process has been given.
    public static func reserve() throws -> Int {
        let ceiling = ephemeralFloor()
        let floor = max(1_024, ceiling - 12_000)
        let span = ceiling - floor
        let start = Int.random(in: 0..<span)
        for offset in 0..<span {
            let port = floor + (start + offset) % span
            let taken = given.withLock { !$0.insert(port).inserted }
            if !taken && isFree(port) { return port }
        }
        throw HarnessError("no free loopback port in \(floor)..<\(ceiling)")
    }

    /// The first port of the kernel's ephemeral range (32768 unless configured otherwise).
    private static func ephemeralFloor() -> Int {
        let fd = open("/proc/sys/net/ipv4/ip_local_port_range", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 32_768 }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        let text = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
        guard let first = text.split(whereSeparator: \.isWhitespace).first, let low = Int(first), low > 2_048
        else { return 32_768 }
        return low
    }

    /// Whether a listener could bind 127.0.0.1:`port` now (with SO_REUSEADDR, as the daemon's).
    private static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
