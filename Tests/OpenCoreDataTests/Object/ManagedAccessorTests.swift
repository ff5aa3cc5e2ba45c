import Foundation
import Synchronization
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A property of every type `@Managed` supports; keys default to the property name, except
/// `maybeText`, stored under "optionalText".
final class Specimen: ManagedObject {
    @Managed var text: String
    @Managed var small: Int16
    @Managed var medium: Int32
    @Managed var large: Int64
    @Managed var real: Double
    @Managed var single: Float
    @Managed var flag: Bool
    @Managed var amount: Decimal
    @Managed var when: Date
    @Managed var blob: Data
    @Managed var identifier: UUID
    @Managed var link: URL
    @Managed("optionalText") var maybeText: String?
    @Managed var maybeLarge: Int64?
    @Managed var owner: Specimen?
    @Managed var owned: Set<Specimen>
    @Managed var queue: [Specimen]
    @Managed var queuedIn: Specimen?
}

/// Swift subclasses mirroring entity inheritance: `Hound` inherits `Animal`'s properties.
class Animal: ManagedObject {
    @Managed var name: String
    @Managed("years") var age: Int64
}

class Dog: Animal {
    @Managed var breed: String?
}

final class Hound: Dog {
    @Managed var scent: Double
}

/// The same class in two models that order its properties differently.
final class Pair: ManagedObject {
    @Managed var first: String
    @Managed var second: Int64
}

@Suite struct ManagedAccessorTests {
    static func specimenModel() -> ManagedObjectModel {
        ManagedObjectClasses.register(Specimen.self)
        let entity = EntityDescription(name: "Specimen", managedObjectClassName: "Specimen", properties: [
            AttributeDescription(name: "text", type: .string),
            AttributeDescription(name: "small", type: .integer16),
            AttributeDescription(name: "medium", type: .integer32),
            AttributeDescription(name: "large", type: .integer64),
            AttributeDescription(name: "real", type: .double),
            AttributeDescription(name: "single", type: .float),
            AttributeDescription(name: "flag", type: .boolean),
            AttributeDescription(name: "amount", type: .decimal),
            AttributeDescription(name: "when", type: .date),
            AttributeDescription(name: "blob", type: .binaryData),
            AttributeDescription(name: "identifier", type: .uuid),
            AttributeDescription(name: "link", type: .uri),
            AttributeDescription(name: "optionalText", type: .string),
            AttributeDescription(name: "maybeLarge", type: .integer64),
        ])
        let owner = RelationshipDescription(name: "owner", destination: entity)
        let owned = RelationshipDescription(name: "owned", destination: entity, toMany: true)
        owner.setInverse(owned)
        let queue = RelationshipDescription(name: "queue", destination: entity, toMany: true, isOrdered: true)
        let queuedIn = RelationshipDescription(name: "queuedIn", destination: entity)
        queue.setInverse(queuedIn)
        entity.properties += [owner, owned, queue, queuedIn]
        return ManagedObjectModel(entities: [entity])
    }

    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    static let date = Date(timeIntervalSinceReferenceDate: 123_456.5)

    /// Sets every property to an edge value.
    static func fill(_ specimen: Specimen) {
        specimen.text = "naïve ☃"
        specimen.small = .min
        specimen.medium = .max
        specimen.large = .min
        specimen.real = -0.1
        specimen.single = 3.5
        specimen.flag = true
        specimen.amount = Decimal(string: "12345.6789")!
        specimen.when = date
        specimen.blob = Data([0, 1, 255])
        specimen.identifier = uuid
        specimen.link = URL(string: "https://example.com/a?b=c")!
        specimen.maybeText = "maybe"
        specimen.maybeLarge = nil
    }

    static func expectFilled(_ specimen: Specimen) {
        #expect(specimen.text == "naïve ☃")
        #expect(specimen.small == .min)
        #expect(specimen.medium == .max)
        #expect(specimen.large == .min)
        #expect(specimen.real == -0.1)
        #expect(specimen.single == 3.5)
        #expect(specimen.flag == true)
        #expect(specimen.amount == Decimal(string: "12345.6789")!)
        #expect(specimen.when == date)
        #expect(specimen.blob == Data([0, 1, 255]))
        #expect(specimen.identifier == uuid)
        #expect(specimen.link == URL(string: "https://example.com/a?b=c")!)
        #expect(specimen.maybeText == "maybe")
        #expect(specimen.maybeLarge == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func everyTypeRoundTrips(_ kind: StoreKind) throws {
        let stack = try TestStack(model: Self.specimenModel(), kind: kind)
        try stack.context.performAndWait {
            let head = Specimen(context: stack.context)
            Self.fill(head)
            Self.expectFilled(head)
            let member = Specimen(context: stack.context)
            Self.fill(member)
            member.text = "member"
            member.maybeLarge = 7
            member.owner = head
            head.queue = [member, head]
            #expect(head.owned == [member])
            #expect(member.queuedIn === head)
            try stack.context.save()
            stack.context.reset()

            let fetched = try stack.context.fetch(FetchRequest<Specimen>())
            let loadedHead = try #require(fetched.first { $0.text != "member" })
            let loadedMember = try #require(fetched.first { $0.text == "member" })
            Self.expectFilled(loadedHead)
            #expect(loadedMember.maybeLarge == 7)
            #expect(loadedMember.owner === loadedHead)
            #expect(loadedHead.owned == [loadedMember])
            #expect(loadedHead.queue.map(\.text) == ["member", "naïve ☃"])
            #expect(loadedHead.value(forKey: "optionalText") as? String == "maybe")

            loadedMember.maybeText = nil
            loadedMember.owner = nil
            loadedHead.queue = []
            #expect(loadedHead.owned.isEmpty)
            #expect(loadedMember.queuedIn == nil)
            #expect(loadedMember.value(forKey: "optionalText") == nil)
        }
    }

    /// An explicit key stores under that key; the default key is the property name.
    @Test func keysDefaultToThePropertyName() throws {
        let stack = try TestStack(model: Self.specimenModel(), kind: .sqlite)
        try stack.context.performAndWait {
            let specimen = Specimen(context: stack.context)
            specimen.maybeText = "explicit"
            specimen.text = "default"
            #expect(specimen.value(forKey: "optionalText") as? String == "explicit")
            #expect(specimen.value(forKey: "text") as? String == "default")
            try stack.context.save()
        }
        let url = try #require(stack.storeURL)
        #expect(try SQLiteInspector(url).strings("SELECT ZOPTIONALTEXT || '/' || ZTEXT FROM ZSPECIMEN") == ["explicit/default"])
    }

    static func animalModel() -> ManagedObjectModel {
        for type in [Animal.self, Dog.self, Hound.self] as [ManagedObject.Type] { ManagedObjectClasses.register(type) }
        let animal = EntityDescription(name: "Animal", managedObjectClassName: "Animal", properties: [
            AttributeDescription(name: "name", type: .string),
            AttributeDescription(name: "years", type: .integer64),
        ])
        let dog = EntityDescription(name: "Dog", managedObjectClassName: "Dog", properties: [
            AttributeDescription(name: "breed", type: .string),
        ])
        let hound = EntityDescription(name: "Hound", managedObjectClassName: "Hound", properties: [
            AttributeDescription(name: "scent", type: .double),
        ])
        animal.subentities = [dog]
        dog.subentities = [hound]
        return ManagedObjectModel(entities: [animal, dog, hound])
    }

    /// Inherited `@Managed` properties work on each subclass (one descriptor serves the
    /// objects of three entities, read interleaved).
    @Test(arguments: StoreKind.allCases)
    func inheritedPropertiesWorkOnSubclasses(_ kind: StoreKind) throws {
        let stack = try TestStack(model: Self.animalModel(), kind: kind)
        try stack.context.performAndWait {
            let cat = Animal(context: stack.context)
            let dog = Dog(context: stack.context)
            let hound = Hound(context: stack.context)
            for (index, animal) in [cat, dog, hound].enumerated() {
                animal.name = "animal \(index)"
                animal.age = Int64(index)
            }
            dog.breed = "collie"
            hound.breed = "beagle"
            hound.scent = 0.75
            try stack.context.save()
            stack.context.reset()
            let animals = try stack.context.fetch(FetchRequest<Animal>()).sorted { $0.age < $1.age }
            #expect(animals.map(\.name) == ["animal 0", "animal 1", "animal 2"])
            #expect(type(of: animals[1]) == Dog.self && type(of: animals[2]) == Hound.self)
            #expect((animals[1] as? Dog)?.breed == "collie")
            let loadedHound = try #require(animals[2] as? Hound)
            #expect(loadedHound.breed == "beagle" && loadedHound.scent == 0.75 && loadedHound.age == 2)
            #expect(loadedHound.value(forKey: "years") as? Int64 == 2)
        }
        #expect(ManagedObject.propertyName(for: \Hound.age) == "years")
        #expect(ManagedObject.propertyName(for: \Hound.breed) == "breed")
        #expect(ManagedObject.propertyName(for: \Dog.name) == "name")
    }

    /// `Pair` in two models: "first" is slot 0 of one and slot 2 of the other.
    static func pairModel(reversed: Bool) -> ManagedObjectModel {
        ManagedObjectClasses.register(Pair.self)
        var properties = [
            AttributeDescription(name: "first", type: .string),
            AttributeDescription(name: "second", type: .integer64),
        ]
        if reversed { properties = [AttributeDescription(name: "padding", type: .string)] + properties.reversed() }
        return ManagedObjectModel(entities: [EntityDescription(name: "Pair", managedObjectClassName: "Pair", properties: properties)])
    }

    /// Objects of one class in two models with different slot orders, used interleaved:
    /// each value lands under its own key, in the store and in memory.
    @Test(arguments: StoreKind.allCases)
    func slotsResolvePerModelLayout(_ kind: StoreKind) throws {
        let plain = try TestStack(model: Self.pairModel(reversed: false), kind: kind)
        let reversed = try TestStack(model: Self.pairModel(reversed: true), kind: kind)
        let a = plain.context.performAndWait { Pair(context: plain.context) }
        let b = reversed.context.performAndWait { Pair(context: reversed.context) }
        for round in 0..<50 {
            plain.context.performAndWait {
                a.first = "a\(round)"
                a.second = Int64(round)
            }
            reversed.context.performAndWait {
                b.first = "b\(round)"
                b.second = Int64(-round)
            }
            plain.context.performAndWait { #expect(a.first == "a\(round)" && a.second == Int64(round)) }
            reversed.context.performAndWait { #expect(b.first == "b\(round)" && b.second == Int64(-round)) }
        }
        reversed.context.performAndWait {
            #expect(b.value(forKey: "first") as? String == "b49")
            #expect(b.value(forKey: "second") as? Int64 == -49)
            #expect(b.value(forKey: "padding") == nil)
        }
        try plain.context.performAndWait { try plain.context.save() }
        try reversed.context.performAndWait { try reversed.context.save() }
        if kind == .sqlite {
            #expect(try SQLiteInspector(plain.storeURL!).strings("SELECT ZFIRST || '/' || ZSECOND FROM ZPAIR") == ["a49/49"])
            #expect(try SQLiteInspector(reversed.storeURL!).strings("SELECT ZFIRST || '/' || ZSECOND || '/' || ifnull(ZPADDING, 'null') FROM ZPAIR") == ["b49/-49/null"])
        }
    }

    /// Two threads read the same class's objects of two layouts at once: the shared slot
    /// cache may flip between layouts at any moment, and no read sees the other's slot.
    @Test func slotCacheIsRightUnderConcurrentLayouts() throws {
        let stacks = [try TestStack(model: Self.pairModel(reversed: false), kind: .inMemory),
                      try TestStack(model: Self.pairModel(reversed: true), kind: .inMemory)]
        let ids = stacks.enumerated().map { index, stack in
            stack.context.performAndWait {
                let pair = Pair(context: stack.context)
                pair.first = "stack \(index)"
                pair.second = Int64(index)
                return pair.objectID
            }
        }
        let contexts = stacks.map(\.context)
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            contexts[index].performAndWait {
                guard let pair = contexts[index].object(with: ids[index]) as? Pair else {
                    mismatches.add(1, ordering: .relaxed)
                    return
                }
                for _ in 0..<20_000 where pair.first != "stack \(index)" || pair.second != Int64(index) {
                    mismatches.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }

    @Test func keyPathsNameTheirKeys() {
        #expect(ManagedObject.propertyName(for: \Specimen.text) == "text")
        #expect(ManagedObject.propertyName(for: \Specimen.maybeText) == "optionalText")
        #expect(ManagedObject.propertyName(for: \Specimen.owned) == "owned")
        #expect(ManagedObject.propertyName(for: \Specimen.owner?.text) == "owner")
        #expect(ManagedObject.propertyName(for: \Specimen.objectID) == nil)
        #expect(ManagedPropertyNames.name(of: \Specimen.maybeText) == "optionalText")
        #expect(ManagedPropertyNames.name(of: \Specimen.queue) == "queue")
        // Only a key path that is the property itself names it.
        #expect(ManagedPropertyNames.name(of: \Specimen.owner?.text) == nil)
    }

    @Test func aNilInANonOptionalPropertyTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try TestStack(model: Self.specimenModel(), kind: .inMemory)
            stack.context.performAndWait { _ = Specimen(context: stack.context).text }
        }
    }

    @Test func anUnknownKeyTrapsNamingTheEntity() async {
        await #expect(processExitsWith: .failure) {
            ManagedObjectClasses.register(Pair.self)
            let entity = EntityDescription(name: "Pair", managedObjectClassName: "Pair", properties: [
                AttributeDescription(name: "first", type: .string),
            ])
            let stack = try TestStack(model: ManagedObjectModel(entities: [entity]), kind: .inMemory)
            stack.context.performAndWait { Pair(context: stack.context).second = 1 }
        }
    }
}
