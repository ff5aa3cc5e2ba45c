import Foundation
import OpenCoreData

/// `Flat` as the README teaches: a final subclass with `@Managed` properties, bound to
/// the entity of the same name.
final class Flat: ManagedObject {
    @Managed var a0: Int64
    @Managed var a1: Int64
    @Managed var a2: Double
    @Managed var a3: Double
    @Managed var a4: String
    @Managed var a5: String
    @Managed var a6: Bool
    @Managed var a7: Date
    @Managed var a8: Data
    @Managed var a9: String
}

/// Moving `Flat` values in and out of `Flat` objects through their typed properties.
enum OCDTypedFlat: OCDFlatAccess {
    static func setUp() {
        ManagedObjectClasses.register(Flat.self)
    }

    static func insert(_ rows: [FlatValues], into context: ManagedObjectContext) {
        for row in rows {
            let flat = Flat(context: context)
            flat.a0 = row.a0
            flat.a1 = row.a1
            flat.a2 = row.a2
            flat.a3 = row.a3
            flat.a4 = row.a4
            flat.a5 = row.a5
            flat.a6 = row.a6
            flat.a7 = row.a7
            flat.a8 = row.a8
            flat.a9 = row.a9
        }
    }

    static func values(of flat: Flat) -> FlatValues {
        FlatValues(a0: flat.a0, a1: flat.a1, a2: flat.a2, a3: flat.a3, a4: flat.a4,
                   a5: flat.a5, a6: flat.a6, a7: flat.a7, a8: flat.a8, a9: flat.a9)
    }

    static func a0(of flat: Flat) -> Int64 { flat.a0 }
    static func a4(of flat: Flat) -> String { flat.a4 }

    static func change(_ flat: Flat, a2: Double, a4: String) {
        flat.a2 = a2
        flat.a4 = a4
    }

    static func request(asFaults: Bool) -> FetchRequest<Flat> {
        let request = FetchRequest<Flat>()
        request.returnsObjectsAsFaults = asFaults
        return request
    }
}
