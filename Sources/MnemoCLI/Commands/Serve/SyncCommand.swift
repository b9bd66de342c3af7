import ArgumentParser
import Foundation
import Mnemo

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Keep this file's namespace in step with a `mnemo serve` namespace.",
        discussion: """
            Pushes the operations made in the file since its last sync, then pulls what changed on \\
            the server. The server decides: what two devices added is merged by its duplicate \\
            rules, contradictions become conflicts on every copy, a delete wins over an edit and \\
            an erasure over everything. The first sync sends every fact the file holds and reads \\
            the server's whole namespace; so does a file whose last sync is older than the \\
            server's change window. An interrupted sync is safe to run again. The token file holds \\
            the bearer token (one line); the namespace is --namespace, which must be the token's.

            After every sync the file and the server compare a digest of the namespace's facts; \
            a difference (a file or a server restored from a backup) is repaired and reported. A \
            linked file syncs with its own server only: --relink links it to another on purpose \
            (its facts are offered to the new server). --verify compares without changing \
            anything.
              mnemo sync --server http://127.0.0.1:8080 --token-file ~/.mnemo-token --db phone.sqlite
              mnemo sync --status --db phone.sqlite
              mnemo sync --verify --server http://127.0.0.1:8080 --token-file ~/.mnemo-token --db phone.sqlite

            Exit status, by class of failure (with --json the error is a JSON object on stdout, \
            {"error": {"class": …, "message": …}}):
              0   synced (or verified in step)
              1   another failure (a bad option, an unreadable file, a refused request)
              3   --verify found the file and the server differ
              10  unauthorized: the server refused the token (401)
              11  forbidden: the token is not allowed this namespace (403)
              12  unreachable: no connection to the server
              13  timed out: the server did not answer within --timeout
              14  server error: the server failed or is unavailable (5xx); retry later
              15  incompatible server: no sync routes, or an answer this version cannot read
              16  other server: the file is linked to another server (see --relink)
              17  diverged: the file and the server still differ after a repair
            """)

    @Option(help: ArgumentHelp("The server's URL.", valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("A file holding the bearer token.", valueName: "file"))
    var tokenFile: String?

    @Flag(help: "Say what waits to be pushed and when the last sync ran, without syncing.")
    var status = false

    @Flag(help: "Compare this file's facts with the server's, changing nothing (exit 3 when they differ).")
    var verify = false

    @Flag(
        help:
            "Link this file to --server although it is linked to another one; its facts are offered to the new server.")
    var relink = false

    @Option(help: ArgumentHelp("Seconds to wait for the server's answer to each request.", valueName: "seconds"))
    var timeout: Double = 15

    @Flag(
        help:
            "Embed the pulled facts here instead of taking the server's vectors: about 2 KB less per fact over the wire, and the time to embed them."
    )
    var embedLocally = false

    @Option(
        help: ArgumentHelp(
            "Measure instead: this many times, change a fact of the file, sync it and sync --peer.",
            valueName: "rounds"))
    var measureLatency: Int?

    @Option(help: ArgumentHelp("With --measure-latency: another device's file.", valueName: "file"))
    var peer: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if status {
            if server != nil || tokenFile != nil || embedLocally || verify || relink {
                throw ValidationError("--status takes no --server, --token-file, --embed-locally, --verify or --relink")
            }
        } else if server == nil {
            throw ValidationError("--server URL is required (or --status)")
        }
        if verify && relink { throw ValidationError("--verify changes nothing: it takes no --relink") }
        guard timeout > 0, timeout <= 3600 else {
            throw ValidationError("--timeout must be above 0 and at most 3600 seconds, not \(timeout)")
        }
    }

    func run() async throws {
        do {
            try await runSync()
        } catch let error as SyncError {
            if global.json {
                try Output.json(SyncFailure(error: .init(class: error.kind.rawValue, message: error.reason)))
            } else {
                FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            }
            throw ExitCode(Self.exitCode(error.kind))
        } catch let error as ExitCode {
            throw error
        } catch  where global.json {
            let message = "\(CLIError.explaining(error))"
            try Output.json(SyncFailure(error: .init(class: "failed", message: message)))
            throw ExitCode.failure
        }
    }

    /// The exit status of each class of failure, as `mnemo help sync` lists them.
    static func exitCode(_ kind: SyncError.Kind) -> Int32 {
        switch kind {
        case .unauthorized: 10
        case .forbidden: 11
        case .unreachable: 12
        case .timedOut: 13
        case .serverError: 14
        case .incompatibleServer: 15
        case .otherServer: 16
        case .diverged: 17
        }
    }

    /// A failure under `--json`.
    struct SyncFailure: Encodable {
        struct Body: Encodable {
            var `class`: String
            var message: String
        }
        var error: Body
    }

    private func runSync() async throws {
        if status {
            let kb = try await global.openExistingKnowledgeBase()
            let status = try await kb.syncStatus()
            if global.json {
                try Output.json(status)
            } else if !status.isLinked {
                print("Never synced: \(try await kb.stats().facts) facts will be pushed by the first sync.")
            } else {
                let last = status.lastSync.map(Timestamp.format) ?? "never (interrupted)"
                print(
                    "\(status.waiting) operations on \(status.waitingFacts) facts or topics waiting to be pushed; "
                        + "last sync \(last); device \(status.device ?? "?").")
            }
            return
        }
        guard let server, let url = URL(string: server), url.scheme == "http" || url.scheme == "https" else {
            throw CLIError("--server must be an http:// or https:// URL, not \"\(server ?? "")\"")
        }
        var token: String?
        if let tokenFile {
            guard let text = FileManager.default.contents(atPath: tokenFile) else {
                throw CLIError("cannot read the token file \(tokenFile)")
            }
            token = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if token?.isEmpty == true { throw CLIError("the token file \(tokenFile) is empty") }
        }
        let kb = try await global.openKnowledgeBase(embedding: true)
        let transport = URLSessionSyncTransport(
            server: url, user: kb.namespace, token: token, timeout: .milliseconds(Int64((timeout * 1000).rounded())))
        if verify {
            let verification = try await kb.verifySync(with: transport)
            if global.json {
                try Output.json(verification)
            } else if verification.isInStep {
                print("In step: this file and the server hold the same facts (digest \(verification.digest)).")
            } else {
                print(
                    "Not in step: \(verification.onlyHere) facts only here, \(verification.onlyOnServer) only on the server, "
                        + "\(verification.differing) differing; \(verification.waiting) operations waiting to be pushed "
                        + "(digest here \(verification.digest), on the server \(verification.serverDigest)).")
            }
            if !verification.isInStep { throw ExitCode(3) }
            return
        }
        if let measureLatency {
            guard measureLatency > 0, let peer else {
                throw CLIError("--measure-latency takes a number of rounds above 0 and --peer FILE")
            }
            return try await self.measureLatency(rounds: measureLatency, peerPath: peer, transport: transport, kb: kb)
        }
        let line = StatusLine.forTerminal()
        let report = try await kb.sync(
            with: transport, options: SyncOptions(embedsLocally: embedLocally, relinks: relink)
        ) { progress in
            if let total = progress.total {
                line?.show(progress.phase.rawValue, done: progress.done, total: total)
            } else {
                line?.show("\(progress.phase.rawValue): \(progress.done.formatted())")
            }
        }
        line?.finish()
        if global.json {
            try Output.json(report)
            return
        }
        var parts = ["pushed \(report.pushed)", "pulled \(report.pulled)"]
        if report.merged > 0 { parts.append("merged \(report.merged)") }
        if report.conflicts > 0 { parts.append("conflicts \(report.conflicts)") }
        if report.gone > 0 { parts.append("gone \(report.gone)") }
        if report.refused > 0 { parts.append("refused \(report.refused)") }
        if report.erased > 0 { parts.append("erased \(report.erased)") }
        if report.replacedFromSnapshot { parts.append("read the whole namespace") }
        if report.deviceWentBack { parts.append("this file went back since its last sync") }
        if report.serverWentBack { parts.append("the server went back since the last sync") }
        if report.repaired > 0 { parts.append("repaired \(report.repaired) differing facts") }
        parts.append(report.verified ? "verified" : "not verified (changes made meanwhile wait)")
        print("Synced: " + parts.joined(separator: ", ") + ".")
    }
}
