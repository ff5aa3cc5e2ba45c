import BugsKit
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

/// The project list: sectioned by host with index titles; a search is one section of the
/// projects whose name or URL contains the text, with editing disabled.
@Suite struct ProjectListControllerTests {
    static let projects: [(String, String?)] = [
        ("swift", "https://github.com/apple/swift"),
        ("Alamofire", "https://GitHub.com/Alamofire/Alamofire"),
        ("GRDB", "https://github.com/groue/GRDB.swift"),
        ("Inkscape", "https://gitlab.com/inkscape/inkscape"),
        ("Notes", nil),
        ("Support", "mailto:help@example.com"),
        ("Hummingbird", "https://hummingbird.codes"),
    ]

    static func stack(_ kind: StoreKind) throws -> TestStack {
        let stack = try TestStack(model: BugsModel.makeModel(), kind: kind)
        try stack.context.performAndWait {
            for (name, url) in projects {
                let project = Project(context: stack.context)
                project.name = name
                project.url = url
            }
            try stack.context.save()
        }
        return stack
    }

    static func names(_ controller: ProjectListController) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: (controller.sections ?? []).map { ($0.name, $0.objects.map(\.name)) })
    }

    @Test(arguments: StoreKind.allCases)
    func sectionedByHostSortedByHostThenName(kind: StoreKind) throws {
        let stack = try Self.stack(kind)
        try stack.context.performAndWait {
            let controller = try ProjectListController(context: stack.context)
            try controller.performFetch()
            let sections = controller.sections ?? []
            #expect(sections.map(\.name) == ["", "github.com", "gitlab.com", "hummingbird.codes"])
            #expect(sections.map { $0.objects.map(\.name) } == [
                ["Notes", "Support"], ["Alamofire", "GRDB", "swift"], ["Inkscape"], ["Hummingbird"],
            ])
            #expect(sections.map(\.indexTitle) == ["#", "G", "G", "H"])
            #expect(controller.sectionIndexTitles == ["#", "G", "H"])
            #expect(controller.section(forSectionIndexTitle: "H", at: 2) == 3)
            #expect(!controller.isSearching)
            #expect(controller.allowsEditing)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aURLEditMovesTheProjectToItsNewHostSection(kind: StoreKind) throws {
        let stack = try Self.stack(kind)
        try stack.context.performAndWait {
            let controller = try ProjectListController(context: stack.context)
            let recorder = SectionRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            let inkscape = try #require(controller.fetchedObjects?.first { $0.name == "Inkscape" })
            inkscape.url = "https://github.com/inkscape/inkscape"
            stack.context.processPendingChanges()
            #expect(Self.names(controller)["github.com"] == ["Alamofire", "GRDB", "Inkscape", "swift"])
            #expect(Self.names(controller)["gitlab.com"] == nil)
            #expect(recorder.deletedSections == ["gitlab.com"])
            try stack.context.save()
            #expect(controller.sections?.map(\.name) == ["", "github.com", "hummingbird.codes"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func searchIsOneCaseInsensitiveSectionByNameOrURL(kind: StoreKind) throws {
        let stack = try Self.stack(kind)
        try stack.context.performAndWait {
            func search(_ text: String) throws -> ProjectListController {
                let controller = try ProjectListController(context: stack.context, searchText: text)
                try controller.performFetch()
                return controller
            }
            let byURL = try search("GITLAB")
            #expect(byURL.sections?.map { $0.objects.map(\.name) } == [["Inkscape"]])
            #expect(byURL.isSearching)
            #expect(!byURL.allowsEditing)
            #expect(byURL.sectionIndexTitles.isEmpty)
            #expect(byURL.searchText == "GITLAB")

            let byNameOrURL = try search("  grdb ")
            #expect(byNameOrURL.searchText == "grdb")
            #expect(byNameOrURL.sections?.map { $0.objects.map(\.name) } == [["GRDB"]])

            let many = try search("Swift")                // "swift" by name, GRDB.swift and apple/swift by URL
            #expect(many.sections?.count == 1)
            #expect(many.sections?.first?.objects.map(\.name) == ["GRDB", "swift"])

            let none = try search("%_*'\"")               // no wildcards: literal text
            #expect(none.sections?.count == 1)
            #expect(none.sections?.first?.numberOfObjects == 0)

            let blank = try search("   ")                 // blank text: not searching
            #expect(!blank.isSearching)
            #expect(blank.allowsEditing)
            #expect(blank.sections?.count == 4)
        }
    }
}

/// Records the section changes a controller reports.
private final class SectionRecorder: FetchedResultsControllerDelegate {
    var deletedSections: [String] = []

    func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange sectionInfo: FetchedResultsSectionInfo<ResultType>, atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        if type == .delete { deletedSections.append(sectionInfo.name) }
    }
}
