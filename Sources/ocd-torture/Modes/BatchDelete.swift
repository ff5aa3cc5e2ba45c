import Foundation
import OpenCoreData

/// Deletes every root of the `doomed` group with one `BatchDeleteRequest` (the store
/// applies the cascade rule to their subtrees): prints `ack deleted <n>`.
struct BatchDelete {
    let arguments: TortureArguments
    init(_ arguments: TortureArguments) { self.arguments = arguments }

    func run() throws {
        let stack = try TortureStack(path: arguments.store)
        try stack.context.performAndWait {
            let roots = FetchRequest<ManagedObject>(entityName: "Item")
            roots.predicate = try CDPredicate(format: "group == %@ AND parent == nil", CascadeFixture.doomed)
            let request = BatchDeleteRequest(fetchRequest: roots)
            request.resultType = .resultTypeCount
            emit("saving")
            let result = try stack.context.execute(request)
            emit("ack deleted \((result as? BatchDeleteResult)?.result as? Int ?? -1)")
        }
    }
}
