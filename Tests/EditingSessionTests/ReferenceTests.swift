import EditingSession
import Foundation
import Testing

@Suite struct ReferenceTests {
    @Test func decimalFormRoundTrips() throws {
        let reference = try #require(Reference<Counter>("12"))
        #expect(reference.primaryKey == 12)
        #expect(reference.description == "12")
        #expect(Reference<Counter>(reference.description) == reference)
    }

    @Test(arguments: ["", "0", "-3", "12a", " 12", "1.5", "١٢", "99999999999999999999"])
    func refusesWhatIsNotARowNumber(_ text: String) {
        #expect(Reference<Counter>(text) == nil)
    }

    @Test func encodesAsANumber() throws {
        let reference = try #require(Reference<Counter>(primaryKey: 7))
        let data = try JSONEncoder().encode([reference])
        #expect(String(decoding: data, as: UTF8.self) == "[7]")
        #expect(try JSONDecoder().decode([Reference<Counter>].self, from: data) == [reference])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Reference<Counter>].self, from: Data("[0]".utf8)) }
    }
}
