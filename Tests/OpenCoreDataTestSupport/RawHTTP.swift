import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A request written by hand to 127.0.0.1:`port` over a plain socket — for what a test
/// client cannot send (another `Host`) or cannot wait on (an endless event stream): reads
/// until `until` appears in the answer, the server closes, or `timeout` passes. The
/// blocking socket calls run on a Dispatch thread, never on the cooperative pool that
/// the server's own handlers need.
package enum RawHTTP {
    package static func exchange(port: Int, request: String, until marker: String? = nil, timeout: TimeInterval = 30) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try blockingExchange(port: port, request: request, until: marker, timeout: timeout) })
            }
        }
    }

    private static func blockingExchange(port: Int, request: String, until marker: String?, timeout: TimeInterval) throws -> String {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw RawHTTPError.socket }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw RawHTTPError.connect }
        var wait = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(request.utf8)
        guard send(socket, bytes, bytes.count, 0) == bytes.count else { throw RawHTTPError.send }
        var answer = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { break }
            if count > 0 { answer += buffer[0..<count] }
            if let marker, String(decoding: answer, as: UTF8.self).contains(marker) { break }
        }
        return String(decoding: answer, as: UTF8.self)
    }

    package enum RawHTTPError: Error { case socket, connect, send }
}
