import ServiceLifecycle

/// A swift-service-lifecycle `Service` that saves a `DALService`'s pending changes on
/// graceful shutdown, so a server in a `ServiceGroup` (which owns SIGTERM and SIGINT:
/// create the `DALService` with `.exitOnly`) stops cleanly on Ctrl+C.
///
/// ```swift
/// let group = ServiceGroup(services: [server, dal.lifecycleService],
///                          gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()
/// ```
public struct DALLifecycleService: Service {
    public let dal: DALService

    public init(dal: DALService) { self.dal = dal }

    /// Waits for graceful shutdown (or cancellation), then saves main → root → disk.
    /// Throws the save's error (which `handleError(_:)` got first).
    public func run() async throws {
        try? await gracefulShutdown()
        if let error = dal.savePendingChanges(hopTimeout: dal.mainQueueTimeout) { throw error }
    }
}

extension DALService {
    /// A `Service` saving this service's pending changes on graceful shutdown.
    public var lifecycleService: DALLifecycleService { DALLifecycleService(dal: self) }
}
