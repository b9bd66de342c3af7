import Foundation

/// The CPU time this process has used, user and system, over all its threads.
///
/// On a machine shared with other work, wall-clock latency includes the time spent waiting for
/// a core; CPU time per query does not, so the two together tell contention from slowness.
public enum ProcessCPUTime {
    public static func now() -> Duration {
        var usage = rusage()
        #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        func duration(_ time: timeval) -> Duration {
            .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec))
        }
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }
}
