import Foundation
import MnemoPostgres
import MnemoTestSupport

/// A PostgreSQL cluster of a test's own (Scripts/postgres/cluster.sh), for what the shared one
/// must not suffer: being stopped and started again under load.
final class ThrowawayCluster: Sendable {
    let directory: URL
    let port: Int
    let url: String

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts/postgres/cluster.sh")

    /// Whether one can be made here: Debian's postgresql-15, as `.ci/run` installs it.
    static let isPossible =
        TestStore.isAvailable && FileManager.default.fileExists(atPath: "/usr/lib/postgresql/15/bin/initdb")

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mnemo-pg-\(UUID().uuidString.prefix(8))")
        port = Int.random(in: 20_000..<30_000)
        url = try Self.run(["start", directory.path, String(port)]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server: `fast` ends its sessions cleanly, `immediate` as a crash would.
    func stop(mode: String = "fast") throws { _ = try Self.run(["stop", directory.path, mode]) }

    func start() throws { _ = try Self.run(["start", directory.path, String(port)]) }

    func remove() {
        try? stop()
        try? FileManager.default.removeItem(at: directory)
    }

    var location: PostgresLocation { get throws { try PostgresLocation(url: url) } }

    @discardableResult
    private static func run(_ arguments: [String]) throws -> String {
        // Output goes to a file, not a pipe (the server that `pg_ctl start` leaves running would
        // hold a pipe open), and the script is waited for with waitpid: Foundation's Process
        // waits for the server's exit too on Linux.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("cluster-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let command =
            ([script.path] + arguments).map(Self.quoted).joined(separator: " ") + " > \(Self.quoted(log.path)) 2>&1"
        let status = try Self.shell(command)
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw ClusterFailure(description: "cluster.sh \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    private static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs `/bin/sh -c command` and returns its exit status.
    private static func shell(_ command: String) throws -> Int32 {
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", command]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ)
        guard spawned == 0 else { throw ClusterFailure(description: "cannot run /bin/sh: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        return (status >> 8) & 0xff
    }

    struct ClusterFailure: Error, CustomStringConvertible {
        var description: String
    }
}
