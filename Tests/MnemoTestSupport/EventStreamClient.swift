import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Glibc)
    private let systemConnect = Glibc.connect
#else
    private let systemConnect = Darwin.connect
#endif

/// A blocking client of a Server-Sent Events stream over a plain socket, as a browser's
/// `EventSource` reads one: run it in a ``ThreadJob``. It reads events until it has `count` of
/// them, the server closes the stream, or `timeout` passes; it can also hang up after any event,
/// to test resuming with `Last-Event-ID`.
package struct EventStreamClient {
    /// One message of the stream: its `id`, `event` name and `data`.
    package struct Message: Sendable, Equatable {
        package var id: String?
        package var event: String?
        package var data: String
    }

    /// The status line's code and the messages read.
    package struct Reading: Sendable {
        package var status: Int
        package var messages: [Message]
        /// Comment lines (`: keep-alive`).
        package var comments: Int
        /// Whether the server ended the stream.
        package var closedByServer: Bool
    }

    package let port: Int
    package let path: String
    package var headers: [String: String] = [:]
    /// A client that stops reading once the stream has begun (after its `ready` event), as long
    /// as this returns `true`; its socket's receive buffer is then as small as the system allows.
    package var stallsWhile: (@Sendable () -> Bool)?

    package init(
        port: Int, path: String, headers: [String: String] = [:], stallsWhile: (@Sendable () -> Bool)? = nil
    ) {
        self.port = port
        self.path = path
        self.headers = headers
        self.stallsWhile = stallsWhile
    }

    /// Reads until `count` messages that are not `ready` came, the server closed, or `timeout`.
    package func read(count: Int, timeout: TimeInterval) throws -> Reading {
        let socket = try connect()
        defer { close(socket) }
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        _ = request.withCString { send(socket, $0, strlen($0), 0) }

        var reading = Reading(status: 0, messages: [], comments: 0, closedByServer: false)
        var buffer = [UInt8]()
        var pending = Message(id: nil, event: nil, data: "")
        var inBody = false
        // The time allowed for reading: a stall (``stallsWhile``) starts it afresh.
        var deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var changes = 0
        while Date() < deadline, changes < count {
            let received = recv(socket, &chunk, chunk.count, 0)
            if received == 0 {
                reading.closedByServer = true
                break
            }
            if received < 0 { continue } // the receive timeout: look at the deadline again
            buffer += chunk[0..<received]
            var start = buffer.startIndex
            defer { buffer.removeSubrange(..<start) }
            while let newline = buffer[start...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = newline + 1
                if !inBody {
                    if reading.status == 0, line.hasPrefix("HTTP/1.1 ") {
                        reading.status = Int(line.dropFirst(9).prefix(3)) ?? 0
                    }
                    if line.isEmpty { inBody = true }
                    continue
                }
                // Chunked transfer encoding: the size lines are hex numbers alone on a line.
                if !line.isEmpty, line.allSatisfy(\.isHexDigit), !line.contains(":") { continue }
                if line.isEmpty {
                    if !pending.data.isEmpty || pending.event != nil {
                        if pending.event == "ready", let stallsWhile {
                            while stallsWhile() { Thread.sleep(forTimeInterval: 0.05) }
                            deadline = Date().addingTimeInterval(timeout)
                        }
                        reading.messages.append(pending)
                        if pending.event != "ready" { changes += 1 }
                        if changes >= count { break }
                    }
                    pending = Message(id: nil, event: nil, data: "")
                } else if line.hasPrefix(":") {
                    reading.comments += 1
                } else if line.hasPrefix("id: ") {
                    pending.id = String(line.dropFirst(4))
                } else if line.hasPrefix("event: ") {
                    pending.event = String(line.dropFirst(7))
                } else if line.hasPrefix("data: ") {
                    pending.data += String(line.dropFirst(6))
                }
            }
        }
        return reading
    }

    private func connect() throws -> Int32 {
        #if canImport(Glibc)
            let handle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let handle = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard handle >= 0 else { throw ServerFailure("no socket") }
        var wait = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(handle, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        if stallsWhile != nil {
            // Set before connecting, so that the window the server is offered is small too.
            var smallest: Int32 = 1
            setsockopt(handle, SOL_SOCKET, SO_RCVBUF, &smallest, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(handle, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(handle)
            throw ServerFailure("cannot connect to 127.0.0.1:\(port)")
        }
        return handle
    }
}
