import OpenCoreData
import Testing

/// Which store a parameterised test runs on.
package enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, inMemory
    package var type: PersistentStoreType { self == .sqlite ? .sqlite : .inMemory }
    package var testDescription: String { rawValue }
}
