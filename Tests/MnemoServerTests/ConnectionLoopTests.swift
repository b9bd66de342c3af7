import Dispatch
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import Testing

@testable import MnemoServer

/// Requests are answered on their connection's event loop, not on Swift's cooperative pool.
@Suite struct ConnectionLoopTests {
    /// The route reports whether it runs on an event loop, before and after a suspension that
    /// another thread resumes.
    @Test func aRequestIsAnsweredOnAnEventLoopAcrossSuspensions() async throws {
        let router = Router()
        router.get("/where") { _, _ -> String in
            let before = MultiThreadedEventLoopGroup.currentEventLoop != nil
            await withCheckedContinuation { resumed in DispatchQueue.global().async { resumed.resume() } }
            let after = MultiThreadedEventLoopGroup.currentEventLoop != nil
            return "\(before) \(after)"
        }
        let application = Application(router: router, server: .http1OnConnectionLoops())
        try await application.test(.live) { client in
            for _ in 0..<3 {
                let answer = try await client.execute(uri: "/where", method: .get)
                #expect(String(buffer: answer.body) == "true true")
            }
        }
    }

    /// Reads on the loop; writes, which embed facts on the calling thread, and reads of a whole
    /// namespace on Swift's pool.
    @Test func writesAreAnsweredOnThePool() async throws {
        let router = Router()
        router.add(middleware: WritesOnThePoolMiddleware())
        let onLoop: @Sendable (Request, BasicRequestContext) async -> String = { _, _ in
            "\(MultiThreadedEventLoopGroup.currentEventLoop != nil)"
        }
        router.get("/where", use: onLoop)
        router.post("/where", use: onLoop)
        router.get("/whole", use: onThePool(onLoop))
        let application = Application(router: router, server: .http1OnConnectionLoops())
        try await application.test(.live) { client in
            let read = try await client.execute(uri: "/where", method: .get)
            let write = try await client.execute(uri: "/where", method: .post)
            let wholeNamespace = try await client.execute(uri: "/whole", method: .get)
            #expect(String(buffer: read.body) == "true")
            #expect(String(buffer: write.body) == "false")
            #expect(String(buffer: wholeNamespace.body) == "false")
        }
    }

    @Test func theExecutorRunsItsJobsOnItsLoop() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let onLoop = await withTaskExecutorPreference(EventLoopTaskExecutor(loop: loop)) {
            let before = loop.inEventLoop
            await withCheckedContinuation { resumed in DispatchQueue.global().async { resumed.resume() } }
            return (before, loop.inEventLoop)
        }
        #expect(onLoop == (true, true))
    }
}
