import DemoStore
import ArgumentParser
import Foundation

/// The options every command takes: which store, and how to print.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The SQLite store file to use, created with its folder if missing.",
        discussion: "Default: $XDG_DATA_HOME/opencoredata-demo/Demo.sqlite, or ~/.local/share/opencoredata-demo/Demo.sqlite.",
        valueName: "path"
    ))
    var store: String?

    @Option(name: .long, help: ArgumentHelp(
        "Seconds to wait while another process holds the store's write lock (default 5).",
        valueName: "seconds"
    ))
    var timeout: Double?

    @Flag(name: .long, help: "Print the result as JSON instead of text.")
    var json = false

    /// The store's file, or nil for the default location.
    var storeURL: URL? { store.map { URL(fileURLWithPath: $0) } }

    /// Opens the store these options name.
    func openStore() throws -> DemoStore {
        try DemoStore.open(at: storeURL, timeout: timeout)
    }

    func validate() throws {
        if let timeout, !(timeout >= 0 && timeout <= 3600) {
            throw ValidationError("--timeout takes 0 to 3600 seconds.")
        }
    }

    /// Where results are printed, in the chosen format.
    var output: Output { Output(json: json) }
}
