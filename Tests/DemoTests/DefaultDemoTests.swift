import Foundation
import Testing

/// The commands without `--store`: they share the default store in the data folder.
@Suite struct DefaultDemoTests {
    @Test func commandsWithoutStoreUseTheDefaultStore() throws {
        let cli = try DemoCLI()
        let added = try cli.run(["lists", "add", "Milk"], addsStore: false)
        #expect(added.status == 0, "\(added)")
        let store = cli.dataHome.appendingPathComponent("opencoredata-demo/Demo.sqlite")
        #expect(FileManager.default.fileExists(atPath: store.path))
        let list = try cli.run(["lists", "ls", "--json"], addsStore: false).json(DemoJSON.List.self)
        #expect(list.items.map(\.title) == ["Milk"])
    }
}
