import Hummingbird
import Logging

/// Turns every error a route throws into a JSON error response (see ``APIError``), so that no
/// input, however bad, gets an HTML page or a bare 500. Unexpected errors are logged.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = MnemoRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let answer = APIError.from(error)
            if answer.status == .internalServerError {
                context.logger.error("\(request.method) \(request.uri.path) failed: \(String(reflecting: error))")
            }
            return try answer.response(from: request, context: context)
        }
    }
}
