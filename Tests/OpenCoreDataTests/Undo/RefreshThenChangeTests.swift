import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

/// A change made after `refresh(_:mergeChanges: false)` in the same event.
@Suite struct RefreshThenChangeTests {
    @Test func aChangeAfterARefreshInTheSameEventIsUndoable() throws {
        let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
        try stack.context.performAndWait {
            let item = stack.insert("Item", ["title": "Milk"])
            try stack.context.save()
            let undoManager = CDUndoManager()
            stack.context.undoManager = undoManager

            stack.context.refresh(item, mergeChanges: false)
            item.setValue("Oat milk", forKey: "title")
            stack.context.processPendingChanges()
            // The refresh's touch hides the change from the event's change set, so the
            // undo manager (and the did-change notification's updated objects) miss it.
            // EditingSession ends the refresh's event before an action runs.
            withKnownIssue("A change after a refresh in the same event is listed as refreshed only") {
                #expect(undoManager.canUndo)
                stack.context.undo()
                #expect(item.value(forKey: "title") as? String == "Milk")
            }
        }
    }
}
