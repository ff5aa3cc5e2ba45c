import Foundation

/// A collection met while evaluating a predicate — a to-many relationship, an array or set
/// value, a constant array, an aggregate `{…}`, the values of a to-many key path, the result
/// of a `SUBQUERY` or a set expression — as one type the evaluator can iterate.
///
/// It remembers whether its order means something (arrays, ordered relationships,
/// aggregates) or not (sets, unordered relationships): index access (`[FIRST]`, `[2]`)
/// needs an order. `nil` elements are kept where the source had them; key paths and
/// collection operators drop them.
package struct EvaluatedCollection {
    /// The elements, in order when `isOrdered`.
    package var elements: [Any?]
    /// Whether the order of `elements` means something.
    package var isOrdered: Bool

    package init(_ elements: [Any?], isOrdered: Bool) {
        self.elements = elements
        self.isOrdered = isOrdered
    }

    /// The elements of `value` when it is a collection: an `EvaluatedCollection`, a
    /// `CDValue.array`, a Swift array or set, an `NSArray`, `NSSet` or `NSOrderedSet`, a
    /// relationship's live view (`mutableSetValue(forKey:)`, `mutableOrderedSetValue(forKey:)`).
    /// `nil` for anything else (dictionaries and strings included).
    package init?(_ value: Any?) {
        guard let value = CDValue.flattenOptional(value) else { return nil }
        switch value {
        case is any KeyValueCoding, is String, is Substring, is Data, is [String: Any]: return nil
        case let collection as EvaluatedCollection: self = collection
        case let constant as CDValue:
            guard case .array(let items) = constant else { return nil }
            self.init(items.map { $0.isNull ? nil : $0 }, isOrdered: true)
        case let objects as [ManagedObject]: self.init(objects, isOrdered: true)
        case let objects as Set<ManagedObject>: self.init(Array(objects), isOrdered: false)
        case let relationship as MutableOrderedRelationship: self.init(relationship.objects, isOrdered: true)
        case let relationship as MutableRelationshipSet: self.init(Array(relationship.objects), isOrdered: false)
        case let items as [Any?]: self.init(items.map(CDValue.flattenOptional), isOrdered: true)
        case let items as [Any]: self.init(items.map(CDValue.flattenOptional), isOrdered: true)
        case let items as Set<AnyHashable>: self.init(items.map { CDValue.flattenOptional($0.base) }, isOrdered: false)
        case let items as NSOrderedSet: self.init(items.array, isOrdered: true)
        case let items as NSArray: self.init(items.map { $0 }, isOrdered: true)
        case let items as NSSet: self.init(items.allObjects, isOrdered: false)
        default: return nil
        }
    }

    /// The elements without their `nil`s.
    package var nonNilElements: [Any] { elements.compactMap { CDValue.flattenOptional($0) } }

    /// The collection as plain Swift values, to hand to callers: `[Any?]` with nested
    /// collections converted too.
    package var plainValue: [Any?] { elements.map(EvaluatedCollection.plain) }

    /// `value` with every `EvaluatedCollection` and `CDValue` in it made a plain Swift value.
    package static func plain(_ value: Any?) -> Any? {
        switch CDValue.flattenOptional(value) {
        case let collection as EvaluatedCollection: return collection.plainValue
        case let constant as CDValue: return constant.anyValue
        case let other: return other
        }
    }
}
