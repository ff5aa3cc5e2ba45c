import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

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

    /// Core Data raises too: an object of a reset context is dead. Listed in
    /// docs/reliability.md with the fix its message names.
    @Test func readingAFaultOfAResetContextTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
            try stack.context.performAndWait {
                let item = stack.insert("Item", ["title": "kept"])
                try stack.context.save()
                let fault = try stack.fetch("Item")[0]
                stack.context.refresh(fault, mergeChanges: false)
                stack.context.reset()
                _ = fault.value(forKey: "title")
                _ = item
            }
        }
    }
}
