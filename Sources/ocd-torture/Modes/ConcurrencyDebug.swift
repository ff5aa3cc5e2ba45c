import Foundation
import OpenCoreData

/// Uses a private-queue context named "torture" with `OPENCOREDATA_CONCURRENCY_DEBUG=1`
/// expected in the environment. `concurrency-misuse` makes one call (`--call`: fetch,
/// save, insert, delete, hasChanges, insertedObjects, property) off the context's queue,
/// which must trap; `concurrency-correct` does all of them inside `performAndWait` and
/// `perform`, which must not. Prints `ack <call>` before each call.
struct ConcurrencyDebugMode {
    let arguments: TortureArguments
    init(_ arguments: TortureArguments) { self.arguments = arguments }

    static let calls = ["fetch", "save", "insert", "delete", "hasChanges", "insertedObjects", "property"]

    func run() throws {
        let stack = try TortureStack(path: arguments.store)
        stack.context.name = "torture"
        // A saved item to work on, made the right way.
        let id = try stack.context.performAndWait {
            let item = stack.insert("Item", ["title": "first", "group": "g"])
            try stack.context.save()
            return item.objectID
        }
        if arguments.mode == .concurrencyMisuse {
            let item = stack.context.performAndWait { stack.context.object(with: id) }
            try call(arguments.call, on: stack, item: item)
            return
        }
        for name in Self.calls {
            try stack.context.performAndWait {
                try call(name, on: stack, item: stack.context.object(with: id))
            }
        }
        let done = DispatchSemaphore(value: 0)
        stack.context.perform {
            _ = try? stack.fetch("Item")
            done.signal()
        }
        done.wait()
    }

    private func call(_ name: String, on stack: TortureStack, item: ManagedObject) throws {
        emit("ack \(name)")
        switch name {
        case "fetch": _ = try stack.fetch("Item")
        case "save": try stack.context.save()
        case "insert": _ = stack.insert("Item", ["title": "more", "group": "g"])
        case "delete": stack.context.delete(item)
        case "hasChanges": _ = stack.context.hasChanges
        case "insertedObjects": _ = stack.context.insertedObjects
        case "property": _ = item.value(forKey: "title")
        default: throw TortureArguments.Invalid(description: "unknown --call \(name); one of \(Self.calls.joined(separator: ", "))")
        }
    }
}
