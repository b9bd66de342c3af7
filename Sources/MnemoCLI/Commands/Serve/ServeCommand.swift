import ArgumentParser
import Foundation
import Mnemo
import MnemoPostgres
import MnemoServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the knowledge base over HTTP: the Lucid and MindChat memory APIs.",
        discussion: """
            Routes: Lucid's /v1/users/{user_id}/facts, /v1/facts/{id}, /v1/facts/search and \
            /v1/facts/extract; MindChat's /api/topics… and /api/facts/{id}; GET /healthz and \
            GET /openapi.json (the OpenAPI 3.1 description of every route).

            A user is a namespace. --auth tokens reads `TOKEN NAMESPACE` lines from --tokens-file; \
            --auth jwt verifies HS256 tokens signed with the secret in --jwt-secret-file, whose `sub` \
            is the namespace; a token is refused before its `nbf` (up to a minute of clock skew is \
            allowed) and after its `exp`, and one without `exp` is refused unless \
            --allow-tokens-without-exp. --auth none (the default) is allowed on a loopback host only; requests \
            then act on the user their path or body names, else on --namespace.

            Plans: --fact-limit N caps every user's facts; a request that would add a new fact \
            past it answers 409 quota_exceeded, or with --fact-limit-policy evict deletes the least \
            valuable facts to make room (the response names them). A tokens-file line \
            `TOKEN NAMESPACE fact-limit=N` (or `fact-limit=none`) gives that token its own limit.

            The memory page: --ui on (the default) serves /ui, a browser view of the user's memory \
            (topics, search, facts with their history, conflicts, undo, erasure, export); with auth, \
            a user signs in once with the same token and gets a session cookie. --ui read-only shows \
            the same views without any action (a POST is 403); --ui off serves no /ui at all.

            SIGTERM or Ctrl-C stops the server gracefully: it stops accepting connections, requests in \
            flight finish, and event streams end with a `reconnect` event.

            With --db postgres://…: when PostgreSQL stops answering, requests that need it fail at \
            once with 503 storage_unavailable and Retry-After while a background probe watches for its \
            return; the namespaces this node holds keep answering reads from its copies, marked with \
            Mnemo-Stale-Seconds; GET /healthz answers 503 (readiness), GET /livez 200 (liveness).

            Example: mnemo serve --db kb.sqlite --auth tokens --tokens-file tokens.txt --port 8080
            """
    )

    enum AuthMode: String, ExpressibleByArgument, CaseIterable {
        case none, tokens, jwt
    }

    @Option(help: "The interface to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The TCP port (0 picks a free one).")
    var port = 8080

    @Option(help: "How requests prove their user: none, tokens or jwt.")
    var auth: AuthMode = .none

    @Option(help: ArgumentHelp("With --auth tokens: a file of `TOKEN NAMESPACE` lines.", valueName: "file"))
    var tokensFile: String?

    @Option(help: ArgumentHelp("With --auth jwt: a file holding the HS256 secret.", valueName: "file"))
    var jwtSecretFile: String?

    @Flag(
        help: "With --auth jwt: accept tokens that carry no `exp` claim (they never expire: a leaked one stays valid).")
    var allowTokensWithoutExp = false

    @Option(
        help: ArgumentHelp(
            "Run `mnemo purge` on every namespace this often (such as 1h): expired facts are erased, undo records older than --undo-older-than dropped.",
            valueName: "duration"))
    var purgeInterval: PurgeCommand.Duration?

    @Option(help: ArgumentHelp("With --purge-interval: the undo window.", valueName: "duration"))
    var undoOlderThan = PurgeCommand.Duration.days(30)

    @Option(help: "The memory page at /ui: on, off or read-only (views without actions).")
    var ui: PageMode = .on

    @Option(help: ArgumentHelp("The largest request body accepted, in bytes.", valueName: "bytes"))
    var maxBodyBytes = 1 << 20

    @Option(
        help: ArgumentHelp("Query vectors kept so repeated searches are not encoded again (0: none).", valueName: "n"))
    var queryCacheSize = 1_024

    @Option(
        help: ArgumentHelp(
            "With --db postgres://…: the most memory the held namespaces' vectors may take; the least recently used are closed beyond it.",
            valueName: "MiB"))
    var vectorCacheMb: Int?

    @Option(
        help: ArgumentHelp(
            "With --db postgres://…: where this node keeps its copies of the namespaces it serves (kept across restarts; the node locks it, and a second node given the same folder is refused). Default: a temporary folder, removed when the node stops (or, if it was killed, by the next node to start).",
            valueName: "path"))
    var copiesDir: String?

    @Option(
        help: ArgumentHelp(
            "With --db postgres://…: seconds a request waits for PostgreSQL before it fails with 503 storage_unavailable.",
            valueName: "seconds"))
    var storageTimeout = 5.0

    @Option(
        help: ArgumentHelp(
            "With --db postgres://…: the most queued writes of one user committed together in one PostgreSQL transaction (1: each alone).",
            valueName: "n"))
    var writeGroupMax = 128

    @OptionGroup var quota: QuotaOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if auth == .tokens, tokensFile == nil { throw ValidationError("--auth tokens needs --tokens-file FILE") }
        if auth == .jwt, jwtSecretFile == nil { throw ValidationError("--auth jwt needs --jwt-secret-file FILE") }
        if auth != .tokens, tokensFile != nil { throw ValidationError("--tokens-file goes with --auth tokens") }
        if auth != .jwt, jwtSecretFile != nil { throw ValidationError("--jwt-secret-file goes with --auth jwt") }
        if auth != .jwt, allowTokensWithoutExp {
            throw ValidationError("--allow-tokens-without-exp goes with --auth jwt")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be positive") }
        guard queryCacheSize >= 0 else { throw ValidationError("--query-cache-size must not be negative") }
        if let vectorCacheMb, vectorCacheMb < 1 { throw ValidationError("--vector-cache-mb must be at least 1") }
        guard storageTimeout > 0 else { throw ValidationError("--storage-timeout must be positive") }
        guard writeGroupMax >= 1 else { throw ValidationError("--write-group-max must be at least 1") }
        if let purgeInterval, purgeInterval.seconds < 1 {
            throw ValidationError("--purge-interval must be at least 1s")
        }
    }

    func run() async throws {
        let authentication: Authentication =
            switch auth {
            case .none: .none
            case .tokens: try Authentication.tokens(fromFile: tokensFile!)
            case .jwt: try await Authentication.jwt(secretFile: jwtSecretFile!, requiresExpiry: !allowTokensWithoutExp)
            }
        let embedder = CachingEmbedder(try EmbedderLoader.load(), capacity: queryCacheSize)
        var storeOptions = PostgresMemory.Options(
            copiesDirectory: copiesDir.map { URL(fileURLWithPath: $0) },
            vectorCacheBytes: vectorCacheMb.map { $0 << 20 })
        storeOptions.timeout = .milliseconds(Int(storageTimeout * 1_000))
        storeOptions.maximumWriteGroup = writeGroupMax
        let kb = try quota.applied(to: await global.openKnowledgeBase(embedder: embedder, storeOptions: storeOptions))
        var configuration = ServerConfiguration(
            host: host, port: port, maximumBodySize: maxBodyBytes, defaultNamespace: global.namespaceName, page: ui)
        if let store = OpenStores.all.first {
            let status = StorageStatus()
            store.observeAvailability { status.update($0) }
            status.update(store.availability)
            configuration.storageStatus = status
            configuration.storageHealth = {
                let health = await store.health()
                return StorageHealth(
                    namespacesHeld: health.namespacesHeld, vectorBytes: health.vectorBytes,
                    versionsBehind: health.versionsBehind, changeFeedConnected: health.changeFeedConnected,
                    status: health.availability)
            }
        }
        let server: MnemoHTTPServer
        do {
            server = try MnemoHTTPServer(
                knowledgeBase: kb, configuration: configuration, authentication: authentication)
        } catch let error as ServerSetupError {
            throw CLIError(error.description)
        }
        let host = host
        let database = global.databasePath
        let auth = auth
        let model = embedder.identity.name
        let purging = purgeInterval.map { interval in
            Task { [undoWindow = undoOlderThan.seconds] in
                await Self.purge(kb, every: interval.seconds, undoWindow: undoWindow)
            }
        }
        defer { purging?.cancel() }
        try await server.run { port in
            Output.note(
                "mnemo serve: http://\(host):\(port) · database \(database) · auth \(auth.rawValue) · model \(model)")
        }
        Output.note("mnemo serve: stopped")
    }

    /// Purges every namespace, then waits `interval`, until cancelled. A failed purge is
    /// reported and retried at the next turn: the server keeps serving.
    static func purge(_ kb: KnowledgeBase, every interval: TimeInterval, undoWindow: TimeInterval) async {
        while !Task.isCancelled {
            do {
                for namespace in try await kb.namespaces() {
                    let receipt = try await kb.knowledgeBase(forNamespace: namespace).purge(undoOlderThan: undoWindow)
                    if !receipt.factIDs.isEmpty || receipt.undoRecords > 0 {
                        Output.note(
                            "mnemo serve: purged \(namespace): \(receipt.factIDs.count) expired facts erased, \(receipt.undoRecords) undo records dropped"
                        )
                    }
                }
            } catch {
                Output.note("mnemo serve: purge failed: \(error)")
            }
            try? await Task.sleep(for: .seconds(interval))
        }
    }
}

extension PageMode: ExpressibleByArgument {}
