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
              mnemo sync --server http://127.0.0.1:8080 --token-file ~/.mnemo-token --db phone.sqlite
              mnemo sync --status --db phone.sqlite
            """)

    @Option(help: ArgumentHelp("The server's URL.", valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("A file holding the bearer token.", valueName: "file"))
    var tokenFile: String?

    @Flag(help: "Say what waits to be pushed and when the last sync ran, without syncing.")
    var status = false

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
            if server != nil || tokenFile != nil || embedLocally {
                throw ValidationError("--status takes no --server, --token-file or --embed-locally")
            }
        } else if server == nil {
            throw ValidationError("--server URL is required (or --status)")
        }
    }

    func run() async throws {
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
                    "\(status.waiting) changes waiting to be pushed; last sync \(last); device \(status.device ?? "?")."
                )
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
        let transport = URLSessionSyncTransport(server: url, user: kb.namespace, token: token)
        if let measureLatency {
            guard measureLatency > 0, let peer else {
                throw CLIError("--measure-latency takes a number of rounds above 0 and --peer FILE")
            }
            return try await self.measureLatency(rounds: measureLatency, peerPath: peer, transport: transport, kb: kb)
        }
        let line = StatusLine.forTerminal()
        let report = try await kb.sync(with: transport, options: SyncOptions(embedsLocally: embedLocally)) { progress in
            line?.show("\(progress.phase.rawValue): \(progress.done.formatted())")
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
        print("Synced: " + parts.joined(separator: ", ") + ".")
    }
}
