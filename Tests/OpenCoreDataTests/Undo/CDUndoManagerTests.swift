import Foundation
import Testing
@testable import OpenCoreData

/// `CDUndoManager` on its own, against Foundation's documented `UndoManager` behaviour
/// (developer.apple.com/documentation/foundation/undomanager: undo closes a level-1 group
/// first; an action registered outside undo/redo clears the redo stack; undo's actions
/// register the redo group; checkpoint is posted when a group opens — except a top-level
/// one — or closes, and by `canRedo`).
@Suite struct CDUndoManagerTests {
    /// A value with undoable setters, registering the inverse of each change.
    final class Document {
        var text = ""
        let undoManager: CDUndoManager
        init(_ undoManager: CDUndoManager) { self.undoManager = undoManager }

        func set(_ newText: String) {
            let old = text
            undoManager.registerUndo(withTarget: self) { $0.set(old) }
            text = newText
        }
    }

    @Test func undoAndRedoRunTheRegisteredInverses() {
        let manager = CDUndoManager()
        let document = Document(manager)
        #expect(!manager.canUndo && !manager.canRedo)
        document.set("a")
        manager.endUndoGrouping()
        document.set("b")
        manager.endUndoGrouping()
        #expect(manager.canUndo)
        manager.undo()
        #expect(document.text == "a")
        #expect(manager.canRedo)
        manager.undo()
        #expect(document.text == "")
        #expect(!manager.canUndo)
        manager.redo()
        #expect(document.text == "a")
        manager.redo()
        #expect(document.text == "b")
        #expect(!manager.canRedo)
    }

    @Test func groupsByEventOpensAGroupAtTheFirstRegistrationAndUndoClosesIt() {
        let manager = CDUndoManager()
        let document = Document(manager)
        document.set("a")
        document.set("b")
        #expect(manager.groupingLevel == 1)
        manager.undo()  // closes the level-1 group, then undoes both changes as one
        #expect(manager.groupingLevel == 0)
        #expect(document.text == "")
        manager.redo()
        #expect(document.text == "b")
    }

    @Test func nestedGroupsUndoTogetherAndUndoNestedGroupUndoesTheInnerOne() {
        let manager = CDUndoManager()
        manager.groupsByEvent = false
        let document = Document(manager)
        manager.beginUndoGrouping()
        document.set("outer")
        manager.beginUndoGrouping()
        #expect(manager.groupingLevel == 2)
        document.set("inner")
        manager.endUndoGrouping()
        #expect(manager.groupingLevel == 1)
        manager.undoNestedGroup()  // only the closed inner group
        #expect(document.text == "outer")
        #expect(manager.groupingLevel == 1)
        manager.endUndoGrouping()
        manager.undo()
        #expect(document.text == "")
        manager.redo()
        #expect(document.text == "outer")
    }

    @Test func aNewActionClearsTheRedoStack() {
        let manager = CDUndoManager()
        let document = Document(manager)
        document.set("a")
        manager.undo()
        #expect(manager.canRedo)
        document.set("b")
        #expect(!manager.canRedo)
    }

    @Test func actionNamesNameTheGroupAndTheMenuTitles() {
        let manager = CDUndoManager()
        let document = Document(manager)
        #expect(manager.undoMenuItemTitle == "Undo")
        // Named before anything is registered: the name applies to the event's group.
        manager.setActionName("Type")
        document.set("a")
        manager.endUndoGrouping()
        #expect(manager.undoActionName == "Type")
        #expect(manager.undoMenuItemTitle == "Undo Type")
        manager.undo()
        #expect(manager.redoActionName == "Type")
        #expect(manager.redoMenuItemTitle == "Redo Type")
        #expect(manager.undoMenuItemTitle == "Undo")
        manager.redo()
        #expect(manager.undoMenuItemTitle == "Undo Type")
        #expect(manager.redoMenuTitle(forUndoActionName: "") == "Redo")
    }

    @Test func levelsOfUndoDropsTheOldestGroups() {
        let manager = CDUndoManager()
        let document = Document(manager)
        manager.levelsOfUndo = 2
        for text in ["a", "b", "c"] {
            document.set(text)
            manager.endUndoGrouping()
        }
        manager.undo()
        manager.undo()
        #expect(document.text == "a")
        #expect(!manager.canUndo)
    }

    @Test func disabledRegistrationRecordsNothing() {
        let manager = CDUndoManager()
        let document = Document(manager)
        manager.disableUndoRegistration()
        manager.disableUndoRegistration()
        document.set("a")
        manager.enableUndoRegistration()
        #expect(!manager.isUndoRegistrationEnabled)
        manager.enableUndoRegistration()
        #expect(manager.isUndoRegistrationEnabled)
        #expect(!manager.canUndo)
    }

    @Test func removeAllActionsClearsBothStacksAndByTargetOnlyThatTarget() {
        let manager = CDUndoManager()
        let first = Document(manager), second = Document(manager)
        first.set("1")
        second.set("2")
        manager.endUndoGrouping()
        manager.removeAllActions(withTarget: first)
        manager.undo()
        #expect(first.text == "1")
        #expect(second.text == "")
        manager.removeAllActions()
        #expect(!manager.canUndo && !manager.canRedo)
    }

    @Test func isUndoingAndIsRedoingHoldWhileActionsRun() {
        let manager = CDUndoManager()
        final class Probe { var seen: [String] = [] }
        let probe = Probe()
        func register() {
            manager.registerUndo(withTarget: probe) { probe in
                probe.seen.append("undoing \(manager.isUndoing) redoing \(manager.isRedoing)")
                register()
            }
        }
        register()
        manager.undo()
        manager.redo()
        #expect(probe.seen == ["undoing true redoing false", "undoing false redoing true"])
        #expect(!manager.isUndoing && !manager.isRedoing)
    }

    @Test func aTargetIsNotRetained() {
        let manager = CDUndoManager()
        weak var gone: Document?
        do {
            let document = Document(manager)
            gone = document
            document.set("a")
        }
        #expect(gone == nil)
        manager.undo()  // the action's target is gone: nothing runs
        #expect(!manager.canRedo)
    }

    @Test func notificationsArePostedInFoundationsOrder() {
        let manager = CDUndoManager()
        let document = Document(manager)
        let names: [Notification.Name] = [
            CDUndoManager.checkpointNotification, CDUndoManager.didOpenUndoGroupNotification,
            CDUndoManager.didCloseUndoGroupNotification, CDUndoManager.willUndoChangeNotification,
            CDUndoManager.didUndoChangeNotification, CDUndoManager.willRedoChangeNotification,
            CDUndoManager.didRedoChangeNotification,
        ]
        // @unchecked Sendable: notifications are delivered synchronously on this test's thread.
        final class Log: @unchecked Sendable { var names: [String] = [] }
        let log = Log()
        let observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: manager, queue: nil) { note in
                log.names.append(note.name.rawValue.replacingOccurrences(of: "NSUndoManager", with: "").replacingOccurrences(of: "Notification", with: ""))
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        document.set("a")  // opens a top-level group: no checkpoint
        manager.undo()
        manager.redo()
        #expect(log.names == [
            "DidOpenUndoGroup",
            "Checkpoint", "DidCloseUndoGroup",  // undo closes the event's group
            "Checkpoint", "WillUndoChange", "DidOpenUndoGroup", "Checkpoint", "DidCloseUndoGroup", "DidUndoChange",
            "Checkpoint", "WillRedoChange", "DidOpenUndoGroup", "Checkpoint", "DidCloseUndoGroup", "DidRedoChange",
        ])
    }

    @Test func registeringOutsideAGroupWithoutGroupsByEventTraps() async {
        await #expect(processExitsWith: .failure) {
            let manager = CDUndoManager()
            manager.groupsByEvent = false
            manager.registerUndo(withTarget: manager) { _ in }
        }
    }

    @Test func endingAGroupThatIsNotOpenTraps() async {
        await #expect(processExitsWith: .failure) {
            CDUndoManager().endUndoGrouping()
        }
    }
}
