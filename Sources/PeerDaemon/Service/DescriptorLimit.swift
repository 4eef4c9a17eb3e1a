import Glibc

/// Raises the soft limit on open descriptors to the hard one (at most 65,536) at start-up:
/// every connection, photo file and store takes descriptors, and connections waiting for
/// their ClientHello (up to 32 per handshake slot) take one each. systemd starts user
/// services at a soft limit of 1,024 with a far higher hard limit, the split it recommends
/// for programs that need more and raise it themselves.
enum DescriptorLimit {
    static let most: rlim_t = 65_536

    /// The soft limit now, after raising it where the hard limit allows.
    @discardableResult
    static func raise() -> rlim_t {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let wanted = min(limit.rlim_max, most)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { return wanted }
        }
        return limit.rlim_cur
    }
}
