import Foundation
import Hummingbird
import Logging
import Mnemo
import NIOCore
import ServiceLifecycle

/// The answer of `/healthz` and `/livez`: `storage` only on a node of a PostgreSQL store.
struct Health: ResponseEncodable {
    /// `ok`; from `/healthz` also `storage_unavailable` while the store does not answer, and
    /// `stopping` once the server is shutting down (both with 503).
    var status: String
    var storage: StorageHealth?
    /// The node's Mnemo version, so that a deploy can see which nodes run which release.
    var version = MnemoVersion.current
}

/// The HTTP server of `mnemo serve`: Lucid's and MindChat's memory APIs over one knowledge base.
///
/// Each request acts on its user's namespace only (see ``Authentication``); errors are JSON.
/// ``run()`` stops gracefully on SIGTERM or SIGINT: it stops accepting connections and lets
/// the requests in flight, writes included, finish.
package struct MnemoHTTPServer: Sendable {
    package let configuration: ServerConfiguration
    package let knowledgeBase: KnowledgeBase
    package let authentication: Authentication
    /// The memory page's signed-in browsers.
    package let pageSessions = PageSessions()
    /// What wakes the event streams besides changes: the store's status, shutdown.
    let streamSignals = StreamSignals()

    /// - Throws: when authentication is off on a host other machines can reach.
    package init(knowledgeBase: KnowledgeBase, configuration: ServerConfiguration, authentication: Authentication)
        throws
    {
        if !authentication.requiresToken, !configuration.isLoopback {
            throw ServerSetupError(
                description: """
                    refusing to serve \(configuration.host) without authentication: anyone who can reach it \
                    would read every user's memory; use --auth tokens or --auth jwt, or a loopback host
                    """)
        }
        self.knowledgeBase = knowledgeBase
        self.configuration = configuration
        self.authentication = authentication
        configuration.storageStatus?.onChange { [streamSignals] in streamSignals.ring() }
    }

    /// The routes of both APIs, `/healthz` and `/openapi.json`, behind the error and auth middleware.
    package func router() -> Router<MnemoRequestContext> {
        let router = Router(context: MnemoRequestContext.self)
        router.add(middleware: WritesOnThePoolMiddleware())
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: MethodNotAllowedMiddleware())
        router.add(middleware: QueryStringMiddleware())
        if let storageStatus = configuration.storageStatus {
            router.add(middleware: StaleAnswersMiddleware(status: storageStatus))
        }
        router.add(middleware: RequestLimitMiddleware(maximumBodySize: configuration.maximumBodySize))
        router.add(middleware: AuthMiddleware(authentication: authentication))
        let storageHealth = configuration.storageHealth
        // Readiness: whether this node should get requests (503 while its store does not answer
        // or it is stopping). Liveness: whether the process answers at all.
        router.get("healthz") { _, _ in
            let storage = await storageHealth?()
            let status =
                if Task.isShuttingDownGracefully { "stopping" } else if storage?.isAvailable == false {
                    "storage_unavailable"
                } else { "ok" }
            return EditedResponse(
                status: status == "ok" ? .ok : .serviceUnavailable, response: Health(status: status, storage: storage))
        }
        router.get("livez") { _, _ in Health(status: "ok") }
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(string: await storageHealth?().prometheusText ?? "")))
        }
        router.get("openapi.json") { _, _ in OpenAPIDocument.response() }
        let tenancy = Tenancy(knowledgeBase: knowledgeBase, defaultNamespace: configuration.defaultNamespace)
        LucidRoutes(tenancy: tenancy, configuration: configuration).add(to: router)
        MindChatRoutes(tenancy: tenancy, configuration: configuration).add(to: router)
        ContextRoutes(tenancy: tenancy).add(to: router)
        let changes = ChangeRoutes(
            tenancy: tenancy, stalledStreams: StalledStreams(limit: configuration.eventStreamStallLimit),
            signals: streamSignals, storageStatus: configuration.storageStatus)
        changes.add(to: router)
        SyncRoutes(tenancy: tenancy).add(to: router)
        PageRoutes(
            tenancy: tenancy, configuration: configuration, authentication: authentication, sessions: pageSessions,
            changes: changes
        ).add(to: router)
        return router
    }

    /// The Hummingbird application, for ``run()`` and for tests.
    package func application(logger: Logger? = nil, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        Application(
            router: router(),
            server: .http1OnConnectionLoops(),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "mnemo"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger ?? Logger(label: "mnemo.serve"))
    }

    /// Serves until SIGTERM or SIGINT, then finishes the requests in flight and returns.
    package func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await application(onServerRunning: onServerRunning).runService()
    }
}
