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

    @Flag(name: .long, help: "Print the result as JSON instead of text.")
    var json = false

    /// The store's file, or nil for the default location.
    var storeURL: URL? { store.map { URL(fileURLWithPath: $0) } }

    /// Where results are printed, in the chosen format.
    var output: Output { Output(json: json) }
}
