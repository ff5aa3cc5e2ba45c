import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Review: sub-entities share their root's table; a conflict on a sub-entity's row is
/// found there, and a sibling's row of the same primary-key range is not confused with it.
@Suite struct ReviewInheritanceConflictTests {
    @Test(arguments: StoreKind.allCases)
    func aSubEntityRowChangedElsewhereConflicts(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.people(), kind: kind)
        let (employeeID, contractorID) = try stack.context.performAndWait {
            let employee = stack.insert("Employee", ["name": "e", "salary": Int32(1)])
            let contractor = stack.insert("Contractor", ["name": "c", "rate": 1.5])
            try stack.context.save()
            return (employee.objectID, contractor.objectID)
        }
        let a = stack.newContext(), b = stack.newContext()
        let (employee, contractor) = try a.performAndWait { (try a.existingObject(with: employeeID), try a.existingObject(with: contractorID)) }
        try b.performAndWait {
            try b.existingObject(with: employeeID).setValue("renamed", forKey: "name")
            try b.save()
        }
        let error = a.performAndWait { () -> CoreDataError? in
            employee.setValue(Int32(2), forKey: "salary")
            contractor.setValue(2.5, forKey: "rate")
            do { try a.save() } catch let error as CoreDataError { return error } catch { return nil }
            return nil
        }
        #expect(error?.code == .mergeConflict)
        #expect(error?.conflicts.map(\.sourceObjectID) == [employeeID])
        let reader = stack.newContext()
        let rate = try reader.performAndWait { try reader.existingObject(with: contractorID).value(forKey: "rate") as? Double }
        #expect(rate == 1.5)
    }
}
