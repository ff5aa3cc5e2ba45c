import EditingSession
import Testing

@Suite struct LineInputTests {
    @Test func keepsOneTrimmedLineWithinTheLimit() throws {
        #expect(try LineInput.validated("  Milk \n", limit: 4) == "Milk")
        #expect(throws: LineInput.Problem.empty) { try LineInput.validated(" \t\n", limit: 4) }
        #expect(throws: LineInput.Problem.tooLong(length: 5)) { try LineInput.validated("Milks", limit: 4) }
        #expect(throws: LineInput.Problem.controlCharacters) { try LineInput.validated("Mi\nlk", limit: 9) }
        #expect(throws: LineInput.Problem.controlCharacters) { try LineInput.validated("Mi\u{7}lk", limit: 9) }
        #expect(try LineInput.validated("Crème brûlée 🍮", limit: 15) == "Crème brûlée 🍮")
    }
}
