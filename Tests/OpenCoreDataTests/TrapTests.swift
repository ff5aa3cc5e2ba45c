import Foundation
import Testing
@testable import OpenCoreData

/// Programmer errors trap with a message, as Swift itself would; checked in a child process.
@Suite struct TrapTests {
    @Test func anUnknownKeyTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
            stack.context.performAndWait { _ = stack.insert("Item").value(forKey: "nope") }
        }
    }

    @Test func relatingObjectsOfTwoContextsTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
            let other = stack.newContext()
            let foreign = other.performAndWait { EntityDescription.insertNewObject(forEntityName: "Item", into: other) }
            stack.context.performAndWait { stack.insert("Item").setValue(foreign, forKey: "parent") }
        }
    }

    @Test func anUnknownEntityNameTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
            stack.context.performAndWait { _ = stack.insert("Nope") }
        }
    }
}
