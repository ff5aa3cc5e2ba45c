import Foundation
public class CDPredicate: @unchecked Sendable {
    public init(format: String, argumentArray: [Any?]) throws {}
    public convenience init(format: String, _ args: Any?...) throws { try self.init(format: format, argumentArray: args) }
    package func evaluateThrowing(with object: Any?) throws -> Bool { true }
}
public struct CDSortDescriptor {
    public var key: String; public var ascending: Bool
    static func sorted<T>(_ items: [T], by: [CDSortDescriptor]) throws -> [T] { items }
}
extension SQLiteQuery {
    mutating func compile(_ predicate: CDPredicate) throws -> String { "1" }
    mutating func orderTerm(for descriptor: CDSortDescriptor) throws -> String { "1" }
}
