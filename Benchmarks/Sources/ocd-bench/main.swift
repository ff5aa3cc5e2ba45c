import Foundation

// Children (the binary re-executed by the driver) carry hidden arguments.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count == 2, arguments[0] == RemoteLatency.childFlag {
    exit(RemoteLatency.child(path: arguments[1]))
}
if arguments.first == ChildCommand.flag {
    guard let command = ChildCommand(arguments: arguments) else {
        FileHandle.standardError.write(Data("ocd-bench: malformed child arguments \(arguments)\n".utf8))
        exit(2)
    }
    exit(ChildMain.run(command))
}

do {
    exit(ParentMain.run(try Options(arguments: arguments)))
} catch {
    let message = "\(error)"
    let text = (message.isEmpty ? "" : "ocd-bench: \(message)\n") + Options.usage + "\n"
    FileHandle.standardError.write(Data(text.utf8))
    exit(message.isEmpty ? 0 : 2)
}
