import Foundation

/// Core Data's `-com.apple.CoreData.ConcurrencyDebug 1`: with
/// `OPENCOREDATA_CONCURRENCY_DEBUG=1` in the environment, any use of a context or
/// property access of its objects off the context's queue traps, naming the context
/// and the call. Read once; when off, each checked call costs one predictable branch.
enum ConcurrencyDebug {
    static let isEnabled = ProcessInfo.processInfo.environment["OPENCOREDATA_CONCURRENCY_DEBUG"] == "1"
}

extension ManagedObjectContext {
    /// Traps (with the switch on) when the caller is not on the context's queue: inside
    /// `perform` / `performAndWait`, or for a `.mainQueue` context on the main queue
    /// (by queue identity: an async program on Linux runs main-queue blocks on a worker
    /// thread).
    @inline(__always)
    func checkQueue(_ call: StaticString = #function) {
        if ConcurrencyDebug.isEnabled { checkQueueNow("\(call)") }
    }

    @inline(never)
    func checkQueueNow(_ call: String) {
        guard !isOnQueue else { return }
        let label = name.map { "\"\($0)\" " } ?? ""
        let queue = concurrencyType == .mainQueue ? "mainQueue, off the main queue" : "privateQueue, off its queue"
        preconditionFailure("OpenCoreData concurrency violation (OPENCOREDATA_CONCURRENCY_DEBUG): \(call) on ManagedObjectContext \(label)\(ObjectIdentifier(self)) (\(queue)). Use the context inside perform { } or performAndWait { }.")
    }
}

extension ManagedObject {
    /// The same check for a property access of an object, naming the object too.
    @inline(never)
    func checkQueueForAccess() {
        guard let context, !context.isOnQueue else { return }
        context.checkQueueNow("property access of \(entity.name) \(objectID)")
    }
}
