import Foundation
import OpenCoreData

// The nested-list demo: objc.io's model (items with ordered children, cascade delete),
// saved to a SQLite store and printed back from disk through a fresh coordinator.

let arguments = CommandLine.arguments.dropFirst()
let storePath = arguments.first { !$0.hasPrefix("-") } ?? "opencoredata-demo.sqlite"
let storeURL = URL(fileURLWithPath: storePath)

do {
    let added = try NestedListDemo.addItems(at: storeURL)
    print("Saved \(added) item(s) to \(storeURL.path).")
    print(try NestedListDemo.outline(at: storeURL))
} catch let error as CoreDataError {
    FileHandle.standardError.write(Data("opencoredata-demo: \(error)\n".utf8))
    exit(1)
}
