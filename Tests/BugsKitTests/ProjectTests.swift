import BugsKit
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

/// The model classes on their own: `host` kept in sync with `url`, the cascade to bugs,
/// a bug's required project.
@Suite struct ProjectTests {
    @Test(arguments: [
        ("https://GitHub.com/apple/swift", "github.com"),
        ("http://example.org:8080/x?y#z", "example.org"),
        ("https://user:pw@Sub.Example.COM", "sub.example.com"),
        ("mailto:bugs@example.com", nil),
        ("not a url", nil),
        ("", nil),
    ] as [(String, String?)])
    func hostOfURL(url: String, host: String?) {
        #expect(Project.host(of: url) == host)
    }

    @Test(arguments: StoreKind.allCases)
    func hostFollowsTheURLSetterAtOnce(kind: StoreKind) throws {
        let stack = try TestStack(model: BugsModel.makeModel(), kind: kind)
        let context = stack.context
        try context.performAndWait {
            let project = Project(context: context)
            project.name = "Swift"
            project.url = "https://GitHub.com/apple/swift"
            #expect(project.host == "github.com")          // before any save
            try context.save()
            project.url = "https://gitlab.com/x"
            #expect(project.host == "gitlab.com")
            project.url = nil
            #expect(project.host == nil)
            project.url = "https://Example.org"
            try context.save()
        }
        guard kind == .sqlite else { return }
        let reopened = try stack.reopened(model: BugsModel.makeModel())
        try reopened.context.performAndWait {
            let projects = try reopened.context.fetch(FetchRequest<Project>(entityName: "Project"))
            #expect(projects.map(\.host) == ["example.org"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func willSaveDerivesTheHostOfAURLWrittenByKeyValueCoding(kind: StoreKind) throws {
        let stack = try TestStack(model: BugsModel.makeModel(), kind: kind)
        let context = stack.context
        try context.performAndWait {
            let project = stack.insert("Project", ["name": "Swift", "url": "https://swift.org/x"]) as! Project
            #expect(project.host == nil)                    // KVC bypasses the setter
            try context.save()
            #expect(project.host == "swift.org")
            project.setValue("https://forums.swift.org", forKey: "url")
            project.setValue("forged.example", forKey: "host")
            try context.save()
            #expect(project.host == "forums.swift.org")
            #expect(!project.hasChanges)
            let rows = try stack.fetch("Project", "host == %@", "forums.swift.org")
            #expect(rows.count == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aSaveOfAProjectWhoseHostMatchesChangesNothingMore(kind: StoreKind) throws {
        let stack = try TestStack(model: BugsModel.makeModel(), kind: kind)
        let context = stack.context
        try context.performAndWait {
            let project = Project(context: context)
            project.name = "A"
            project.url = "https://a.example"
            try context.save()
            project.name = "B"
            try context.save()
            #expect(project.changedValues().isEmpty)
            #expect(project.host == "a.example")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deletingAProjectDeletesItsBugs(kind: StoreKind) throws {
        let stack = try TestStack(model: BugsModel.makeModel(), kind: kind)
        let context = stack.context
        try context.performAndWait {
            let project = Project(context: context)
            project.name = "A"
            for title in ["x", "y"] {
                let bug = Bug(context: context)
                bug.title = title
                bug.created = Date()
                bug.project = project
            }
            let other = Project(context: context)
            other.name = "B"
            let kept = Bug(context: context)
            kept.title = "kept"
            kept.created = Date()
            kept.project = other
            try context.save()
            context.delete(project)
            try context.save()
            #expect(try stack.fetch("Bug").map { $0.value(forKey: "title") as? String } == ["kept"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBugWithoutAProjectFailsValidation(kind: StoreKind) throws {
        let stack = try TestStack(model: BugsModel.makeModel(), kind: kind)
        let context = stack.context
        context.performAndWait {
            let bug = Bug(context: context)
            bug.title = "orphan"
            bug.created = Date()
            #expect(throws: CoreDataError.self) { try context.save() }
        }
    }
}

/// The kit's classes are bound by their module-qualified names only.
@Suite struct BugsModelTests {
    @Test(arguments: StoreKind.allCases)
    func anotherModelsProjectEntityKeepsItsOwnClass(kind: StoreKind) throws {
        BugsModel.registerClasses()
        let project = EntityDescription(name: "Project", properties: [
            AttributeDescription(name: "title", type: .string, isOptional: true),
        ])
        let stack = try TestStack(model: ManagedObjectModel(entities: [project]), kind: kind)
        try stack.context.performAndWait {
            let object = stack.insert("Project", ["title": "Mine"])
            #expect(!(object is BugsKit.Project))
            try stack.context.save()
        }
        let bugs = try TestStack(model: BugsModel.makeModel(), kind: kind)
        bugs.context.performAndWait {
            #expect(bugs.insert("Project") is BugsKit.Project)
            #expect(bugs.insert("Bug") is BugsKit.Bug)
        }
    }
}
