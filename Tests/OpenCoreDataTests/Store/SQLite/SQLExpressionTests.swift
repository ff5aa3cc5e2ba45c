import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Expressions in fetches: arithmetic and NSExpression's functions, TERNARY, index
/// access, large IN lists, BETWEEN, variables and what only memory can run.
@Suite struct SQLExpressionTests {
    /// Samples k0…k9 (int64 = 9 - i), see `TestStack.tenSamples`.
    @Test(arguments: StoreKind.allCases)
    func arithmetic(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        #expect(try stack.matching("int64 + 1 == 10") == ["k0"])
        #expect(try stack.matching("int64 * 2 > 15") == ["k0", "k1"])
        #expect(try stack.matching("-int64 == -8") == ["k1"])
        #expect(try stack.matching("int64 / 2 == 4.5") == ["k0"])
        #expect(try stack.matching("modulus:by:(int64, 4) == 1") == ["k0", "k4", "k8"])
        #expect(try stack.matching("int64 / 0 == nil") == stack.matching("TRUEPREDICATE"))
        #expect(try stack.matching("raise:toPower:(int64, 2) == 81") == ["k0"])
        #expect(try stack.matching("abs(int64 - 5) == 4") == ["k0", "k8"])
        #expect(try stack.matching("sqrt(int64) == 3") == ["k0"])
        #expect(try stack.matching("bitwiseAnd:with:(int64, 6) == 6") == ["k2", "k3"])
        #expect(try stack.matching("uppercase(key) == 'K3'") == ["k3"])
        #expect(try stack.matching("length(group) == 3") == ["k1", "k3", "k5", "k7", "k9"])
        // Integer overflow turns into a double instead of failing.
        #expect(try stack.matching("int64 + %@ > 0", Int64.max) == stack.matching("int64 >= 0"))
    }

    @Test(arguments: StoreKind.allCases)
    func ternaryAndConstantFolding(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        #expect(try stack.matching("TERNARY(group == 'even', int64, 0) >= 7") == ["k0", "k2"])
        #expect(try stack.matching("int64 == 2 + 3") == ["k4"])
        #expect(try stack.matching("int64 == max({1, 5, 3})") == ["k4"])
        #expect(try stack.matching("1 + 1 == 2") == stack.matching("TRUEPREDICATE"))
    }

    /// A wrong operand type is the evaluator's typed error on both stores.
    @Test(arguments: StoreKind.allCases)
    func functionErrorsAreTyped(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        #expect(try stack.fetchError("length(int64) > 1").code == .invalidPredicate)
        #expect(try stack.fetchError("$missing == 1").code == .invalidPredicate)
    }

    /// FUNCTION runs in memory only: a store query with it is a typed error.
    @Test func customFunctionsAreRefusedBySQLite() throws {
        let stack = try TestStack.tenSamples(.sqlite)
        let predicate = try CDPredicate(format: "FUNCTION(key, 'reversed') == 'k1'")
        let error = try #require(throws: CoreDataError.self) { try stack.matching(predicate) }
        #expect(error.code == .invalidPredicate)
    }

    @Test(arguments: StoreKind.allCases)
    func largeInListsAndBetween(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        let many = (0..<100_000).map { Int64($0 * 7) }
        #expect(try stack.matching("int64 IN %@", many) == ["k2", "k9"])
        #expect(try stack.matching("int64 IN %@", [1.0, Decimal(3), "5", true]) == ["k6", "k8"])
        #expect(try stack.matching("NOT int64 IN %@", [Int64]()) == stack.matching("TRUEPREDICATE"))
        #expect(try stack.matching("int64 BETWEEN {2, 4}") == ["k5", "k6", "k7"])
        #expect(try stack.matching("int64 BETWEEN {2.5, %@}", Decimal(4)) == ["k5", "k6"])
        #expect(try stack.matching("key BETWEEN {'k2', 'k3'}") == ["k2", "k3"])
        #expect(try stack.matching("int64 BETWEEN {'1', '5'}") == [])
    }

    /// `[SIZE]` counts a to-many relationship; `[FIRST]`, `[LAST]` and `[n]` read an
    /// ordered one by position.
    @Test(arguments: StoreKind.allCases)
    func indexAccess(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        try stack.context.performAndWait {
            let inbox = stack.insert("Folder", ["name": "inbox"])
            _ = stack.insert("Folder", ["name": "empty"])
            let notes = inbox.mutableOrderedSetValue(forKey: "notes")
            for text in ["first", "second", "third"] { notes.append(stack.insert("Note", ["text": text])) }
            try stack.context.save()
            stack.context.reset()
        }
        func folders(_ format: String) throws -> [String] {
            try stack.context.performAndWait { try stack.fetch("Folder", format, sortedBy: "name").map { $0.value(forKey: "name") as? String ?? "" } }
        }
        #expect(try folders("notes[SIZE] == 3") == ["inbox"])
        #expect(try folders("notes[SIZE] == 0") == ["empty"])
        #expect(try folders("notes[FIRST].text == 'first'") == ["inbox"])
        #expect(try folders("notes[LAST].text == 'third'") == ["inbox"])
        #expect(try folders("notes[1].text == 'second'") == ["inbox"])
        #expect(try folders("notes[5].text == nil") == ["empty", "inbox"])
    }

    /// `[FIRST]`, `[LAST]` and `[n]` of an ordered many-to-many relationship read the join
    /// table's positions.
    @Test(arguments: StoreKind.allCases)
    func indexAccessThroughAnOrderedJoinTable(kind: StoreKind) throws {
        let playlist = EntityDescription(name: "Playlist", properties: [AttributeDescription(name: "name", type: .string)])
        let song = EntityDescription(name: "Song", properties: [AttributeDescription(name: "title", type: .string)])
        let songs = RelationshipDescription(name: "songs", destination: song, toMany: true, isOrdered: true)
        let playlists = RelationshipDescription(name: "playlists", destination: playlist, toMany: true)
        songs.setInverse(playlists)
        playlist.properties += [songs]
        song.properties += [playlists]
        let stack = try TestStack(model: ManagedObjectModel(entities: [playlist, song]), kind: kind)
        try stack.context.performAndWait {
            let (a, b, c) = (stack.insert("Song", ["title": "a"]), stack.insert("Song", ["title": "b"]), stack.insert("Song", ["title": "c"]))
            let mix = stack.insert("Playlist", ["name": "mix"]).mutableOrderedSetValue(forKey: "songs")
            for song in [c, a, b] { mix.append(song) }
            let solo = stack.insert("Playlist", ["name": "solo"]).mutableOrderedSetValue(forKey: "songs")
            solo.append(a)
            try stack.context.save()
            stack.context.reset()
        }
        func names(_ format: String) throws -> [String] {
            try stack.context.performAndWait { try stack.fetch("Playlist", format, sortedBy: "name").map { $0.value(forKey: "name") as? String ?? "" } }
        }
        #expect(try names("songs[FIRST].title == 'c'") == ["mix"])
        #expect(try names("songs[LAST].title == 'a'") == ["solo"])
        #expect(try names("songs[LAST].title == 'b'") == ["mix"])
        #expect(try names("songs[1].title == 'a'") == ["mix"])
        #expect(try names("songs[SIZE] == 1") == ["solo"])
    }
}
