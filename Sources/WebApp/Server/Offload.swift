import Dispatch

/// Runs blocking work — a context's `performAndWait`, which may wait seconds for another
/// process's write lock — on a Dispatch thread, so that the few threads of Swift's
/// cooperative pool keep serving other requests meanwhile.
func offload<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try body() })
        }
    }
}
