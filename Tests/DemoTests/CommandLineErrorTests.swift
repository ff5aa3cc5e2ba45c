import Foundation
import OpenCoreDataTestSupport
import Testing

/// Bad input: a message on standard error, the documented exit code, nothing changed.
@Suite struct CommandLineErrorTests {
    @Test func badInputIsRefusedWithItsExitCode() throws {
        let cli = try DemoCLI()
        try cli.run(["lists", "add", "Milk"], expectingStatus: 0)
        let before = try cli.run(["lists", "ls", "--tree", "--json"]).output

        // 65: the app refused the input.
        for arguments in [
            ["lists", "ls", "4"],                 // unknown path
            ["lists", "rename", "1.3", "X"],      // unknown path, one level down
            ["lists", "rename", "1", "  "],       // empty title
            ["lists", "add", ""],                 // empty title
            ["lists", "rm", "@999"],           // unknown reference
            ["lists", "mv", "1", "--in", "1"],    // into itself
            ["bugs", "bugs", "Nope"],             // unknown project
            ["bugs", "add-project", ""],          // empty name
        ] {
            let run = try cli.run(arguments, expectingStatus: 65)
            #expect(run.errors.hasPrefix("Error: ") && run.output.isEmpty, "\(run)")
        }
        #expect(try cli.run(["lists", "ls", "4"]).errors.contains("4"))

        // 64: ArgumentParser's own usage errors.
        for arguments in [["lists", "frobnicate"], ["lists", "mv", "1"], ["lists", "add"], ["bugs", "rm"], ["lists", "add", "x", "--position", "two"]] {
            let run = try cli.run(arguments, expectingStatus: 64)
            #expect(!run.errors.isEmpty, "\(run)")
        }

        // 66: a screenshot that cannot be read; 65: one that is not an image.
        try cli.run(["bugs", "add-project", "Site"], expectingStatus: 0)
        let missing = try cli.run(["bugs", "add-bug", "Site", "Crash", "--screenshot", cli.folder.file("none.png").path], expectingStatus: 66)
        #expect(missing.errors.contains("none.png"))
        let notImage = try cli.folder.write("<svg/>", to: "shot.svg")
        try cli.run(["bugs", "add-bug", "Site", "Crash", "--screenshot", notImage.path], expectingStatus: 65)

        // 73: a store whose folder cannot be created (a file stands where a folder must go).
        let blocker = try cli.folder.write("not a folder", to: "blocker")
        let blocked = try cli.run(["lists", "ls", "--store", blocker.appendingPathComponent("sub/Demo.sqlite").path], addsStore: false)
        #expect(blocked.status == 73, "\(blocked)")
        #expect(blocked.errors.contains(blocker.path))
        // …or a file that is not a store.
        let notStore = try cli.folder.write("hello, I am not SQLite, just some text long enough to be a header", to: "text.sqlite")
        try #expect(cli.run(["lists", "ls", "--store", notStore.path], addsStore: false).status == 73)

        // 75: another process holds the write lock past --timeout.
        let holder = try RawSQLiteConnection(URL(fileURLWithPath: cli.storePath))
        try holder.execute("BEGIN EXCLUSIVE")
        let busy = try cli.run(["lists", "add", "Late", "--timeout", "0.2"], expectingStatus: 75)
        #expect(busy.errors.contains("busy"), "\(busy)")
        try holder.execute("ROLLBACK")
        holder.close()

        // Nothing changed in the store.
        #expect(try cli.run(["lists", "ls", "--tree", "--json"]).output == before)
        #expect(try cli.run(["bugs", "bugs", "Site", "--json"]).json(DemoJSON.Bugs.self).bugs.isEmpty)
    }

    /// A missing store folder is created, many levels deep.
    @Test func storeFolderIsCreatedWhenMissing() throws {
        let cli = try DemoCLI()
        let deep = cli.folder.file("a/b/c/Demo.sqlite")
        let run = try cli.run(["lists", "add", "Milk", "--store", deep.path], addsStore: false)
        #expect(run.status == 0, "\(run)")
        #expect(FileManager.default.fileExists(atPath: deep.path))
    }
}
