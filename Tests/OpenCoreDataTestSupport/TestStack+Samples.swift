import OpenCoreData

extension TestStack {
    /// Ten saved samples k0…k9, inserted in that order, with int64 = 9 - i and group
    /// "even" or "odd"; the context is reset, so fetches see the store only.
    package static func tenSamples(_ kind: StoreKind) throws -> TestStack {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        try stack.context.performAndWait {
            for i in 0..<10 { _ = stack.insert("Sample", ["key": "k\(i)", "int64": 9 - i, "group": i % 2 == 0 ? "even" : "odd"]) }
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    /// root ← mid ← leaf (each the parent of the next), saved; root's string is "top".
    package static func sampleChain(_ kind: StoreKind) throws -> (TestStack, root: ManagedObjectID, mid: ManagedObjectID) {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        let (root, mid) = try stack.context.performAndWait {
            let root = stack.insert("Sample", ["key": "root", "string": "top"])
            let mid = stack.insert("Sample", ["key": "mid", "parent": root])
            _ = stack.insert("Sample", ["key": "leaf", "parent": mid])
            try stack.context.save()
            stack.context.reset()
            return (root.objectID, mid.objectID)
        }
        return (stack, root, mid)
    }

    /// The `key` of each object fetched by `request`, in order.
    package func keys(_ request: FetchRequest<ManagedObject>, in context: ManagedObjectContext? = nil) throws -> [String] {
        let context = context ?? self.context
        return try context.performAndWait {
            try context.fetch(request).map { $0.value(forKey: "key") as? String ?? "nil" }
        }
    }

    /// A request for `Sample`s matching `format`, sorted by `sortedBy` ("-key" for descending).
    package func request(_ format: String? = nil, _ arguments: [Any?] = [], sortedBy keys: [String] = []) throws -> FetchRequest<ManagedObject> {
        let request = FetchRequest<ManagedObject>(entityName: "Sample")
        if let format { request.predicate = try CDPredicate(format: format, argumentArray: arguments) }
        if !keys.isEmpty {
            request.sortDescriptors = keys.map { key in
                key.hasPrefix("-") ? CDSortDescriptor(key: String(key.dropFirst()), ascending: false) : CDSortDescriptor(key: key)
            }
        }
        return request
    }
}
