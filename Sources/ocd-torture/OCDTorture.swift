import Foundation
import OpenCoreData

/// A child process for the reliability tests: it writes a store in one of several modes
/// and prints a line per step, so that a parent can kill it at any instant and check the
/// store afterwards.
///
/// Lines: `ready` when started (before the store is opened), `saving` just before a
/// write, `ack …` just after one returned, `conflict` for each merge conflict (counter
/// mode), `done` at a normal end. Exit status 0, 1 for a store error, 2 for bad usage.
@main
struct OCDTorture {
    static func main() {
        let arguments: TortureArguments
        do {
            arguments = try TortureArguments(Array(CommandLine.arguments.dropFirst()))
        } catch {
            warn("\(error)")
            exit(2)
        }
        emit("ready")
        do {
            switch arguments.mode {
            case .saveLoop: try SaveLoop(arguments).run()
            case .create: try Create(arguments).run()
            case .cascade: try CascadeDelete(arguments).run()
            case .batchDelete: try BatchDelete(arguments).run()
            case .counter: try CounterLoop(arguments).run()
            case .editEvents: try EditEvents(arguments).run()
            case .concurrencyMisuse, .concurrencyCorrect: try ConcurrencyDebugMode(arguments).run()
            case .dalAppState: try DALAppState(arguments).run()
            case .dalCommandLine: try DALCommandLine(arguments).run()
            case .remoteWriter: try RemoteWriter(arguments).run()
            case .documentEditor: DocumentEditor(arguments).run()
            }
            emit("done")
        } catch {
            emit("error \(error)")
            warn("ocd-torture \(arguments.mode.rawValue): \(error)")
            exit(1)
        }
    }
}
