import Foundation
import OpenCoreData

/// Moving `Flat` values in and out of plain `ManagedObject`s through key-value coding,
/// as a Core Data app without generated classes does.
enum OCDKVCFlat: OCDFlatAccess {
    static let entityName = "Flat"

    static func setUp() {}

    static func insert(_ rows: [FlatValues], into context: ManagedObjectContext) {
        for row in rows {
            let object = EntityDescription.insertNewObject(forEntityName: entityName, into: context)
            object.setValue(row.a0, forKey: "a0")
            object.setValue(row.a1, forKey: "a1")
            object.setValue(row.a2, forKey: "a2")
            object.setValue(row.a3, forKey: "a3")
            object.setValue(row.a4, forKey: "a4")
            object.setValue(row.a5, forKey: "a5")
            object.setValue(row.a6, forKey: "a6")
            object.setValue(row.a7, forKey: "a7")
            object.setValue(row.a8, forKey: "a8")
            object.setValue(row.a9, forKey: "a9")
        }
    }

    /// A value of an unexpected type reads as a sentinel, so the checksum check reports it.
    static func values(of object: ManagedObject) -> FlatValues {
        FlatValues(
            a0: object.value(forKey: "a0") as? Int64 ?? -1,
            a1: object.value(forKey: "a1") as? Int64 ?? -1,
            a2: object.value(forKey: "a2") as? Double ?? .nan,
            a3: object.value(forKey: "a3") as? Double ?? .nan,
            a4: object.value(forKey: "a4") as? String ?? "",
            a5: object.value(forKey: "a5") as? String ?? "",
            a6: object.value(forKey: "a6") as? Bool ?? false,
            a7: object.value(forKey: "a7") as? Date ?? .distantPast,
            a8: object.value(forKey: "a8") as? Data ?? Data(),
            a9: object.value(forKey: "a9") as? String ?? ""
        )
    }

    static func a0(of object: ManagedObject) -> Int64 { object.value(forKey: "a0") as? Int64 ?? -1 }
    static func a4(of object: ManagedObject) -> String { object.value(forKey: "a4") as? String ?? "" }

    static func change(_ object: ManagedObject, a2: Double, a4: String) {
        object.setValue(a2, forKey: "a2")
        object.setValue(a4, forKey: "a4")
    }

    static func request(asFaults: Bool) -> FetchRequest<ManagedObject> {
        let request = FetchRequest<ManagedObject>(entityName: entityName)
        request.returnsObjectsAsFaults = asFaults
        return request
    }
}
