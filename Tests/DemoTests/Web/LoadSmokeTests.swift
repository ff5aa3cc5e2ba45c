import Foundation
import Testing

/// Ten seconds of `Tests/Scripts/load.py`: four users reading and writing their own lists
/// with their event streams open, then the server stopped and the store read. Every
/// request answers as it should and every acknowledged write is in the store. The figures
/// of a longer run are in docs/web-app.md.
@Suite struct LoadSmokeTests {
    struct Report: Decodable {
        let requests: Int
        let errors: Int
        let first_errors: [String]
        let writes_acknowledged: Int
        let writes_in_store: Int
        let writes_missing: Int
        let live_events: Int
    }

    @Test func tenSecondsOfMixedReadsAndWritesLoseNothing() throws {
        let script = try ServerScript("load.py")
        let run = try script.run(["--seconds", "10", "--users", "4", "--list-size", "20", "--json"], timeout: 240)
        #expect(run.status == 0, "\(run)")
        let report = try JSONDecoder().decode(Report.self, from: Data(run.output.utf8))
        #expect(report.errors == 0, "\(report.first_errors)")
        #expect(report.writes_acknowledged > 0)
        #expect(report.writes_missing == 0)
        #expect(report.writes_in_store == report.writes_acknowledged, "no write is in the store that was not acknowledged")
        #expect(report.requests > report.writes_acknowledged, "reads were mixed in")
        #expect(report.live_events >= 4, "each user's event stream sent at least its reset")
    }
}
