import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Managed` / `@Managed("key")` on a `var` of a `ManagedObject` subclass: turns it into a
/// computed property whose accessors read and write the object's storage by slot, and adds
/// a `static let _managed_<name>` descriptor that holds the key and caches the slot.
///
/// ```swift
/// @Managed var title: String
/// // becomes
/// var title: String {
///     get { Self._managed_title._get(self) }
///     set { Self._managed_title._set(newValue, on: self) }
/// }
/// nonisolated static let _managed_title = OpenCoreData.ManagedProperty(key: "title")
/// ```
public struct ManagedMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        // Misuse is reported here only, so that each mistake is reported once. Thrown (not
        // diagnosed) so that the compiler does not add that no accessor was produced.
        let property = try ManagedProperty(node: node, declaration: declaration, in: context.lexicalContext)
        let descriptor = "Self.\(property.descriptorName)"
        return [
            "get { \(raw: descriptor)._get(self) }",
            "set { \(raw: descriptor)._set(newValue, on: self) }",
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let property = try? ManagedProperty(node: node, declaration: declaration, in: context.lexicalContext) else { return [] }
        return [
            """
            /// The `@Managed` descriptor of `\(raw: property.name)`: its key and cached slot.
            nonisolated static let \(raw: property.descriptorName) = OpenCoreData.ManagedProperty(key: \(literal: property.key))
            """,
        ]
    }
}

/// What a valid `@Managed` declaration says: the property's name and its model key.
private struct ManagedProperty {
    let name: String
    let key: String
    var descriptorName: String { "_managed_\(name)" }

    /// Reads `declaration`, declared inside `lexicalContext`.
    ///
    /// - Throws: a diagnostic saying why `@Managed` cannot apply to it.
    init(node: AttributeSyntax, declaration: some DeclSyntaxProtocol, in lexicalContext: [Syntax]) throws {
        func fail(_ message: ManagedDiagnostic, at syntax: some SyntaxProtocol) -> DiagnosticsError {
            DiagnosticsError(diagnostics: [Diagnostic(node: Syntax(syntax), message: message)])
        }
        guard let variable = declaration.as(VariableDeclSyntax.self) else {
            throw fail(.notAVariable, at: node)
        }
        guard variable.bindingSpecifier.tokenKind == .keyword(.var) else {
            throw fail(.notVar, at: variable.bindingSpecifier)
        }
        if let modifier = variable.modifiers.first(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }) {
            throw fail(.isStatic, at: modifier)
        }
        guard variable.bindings.count == 1, let binding = variable.bindings.first,
              let identifier = binding.pattern.as(IdentifierPatternSyntax.self)
        else {
            throw fail(.oneProperty, at: variable)
        }
        guard binding.typeAnnotation != nil else {
            throw fail(.noType, at: binding.pattern)
        }
        if let initializer = binding.initializer {
            throw fail(.hasInitializer, at: initializer)
        }
        if let accessors = binding.accessorBlock {
            throw fail(.hasAccessors, at: accessors)
        }
        if !Self.isInClassOrExtension(lexicalContext) {
            throw fail(.notInClass, at: node)
        }
        name = identifier.identifier.trimmedDescription.replacingBackticks
        if let argument = Self.keyArgument(of: node) {
            guard let key = argument else {
                throw fail(.keyNotALiteral, at: node)
            }
            guard !key.isEmpty else {
                throw fail(.emptyKey, at: node)
            }
            self.key = key
        } else {
            key = name
        }
    }

    /// nil without an argument; `.some(nil)` when the argument is not a plain string literal.
    private static func keyArgument(of node: AttributeSyntax) -> String?? {
        guard let list = node.arguments?.as(LabeledExprListSyntax.self), let first = list.first else { return nil }
        guard list.count == 1, first.label == nil,
              let literal = first.expression.as(StringLiteralExprSyntax.self),
              let key = literal.representedLiteralValue
        else { return .some(nil) }
        return .some(key)
    }

    /// Whether the innermost enclosing declaration is a class (or an extension, whose type
    /// the compiler checks: the accessors only accept a `ManagedObject`).
    private static func isInClassOrExtension(_ lexicalContext: [Syntax]) -> Bool {
        guard let enclosing = lexicalContext.first else { return false }
        return enclosing.is(ClassDeclSyntax.self) || enclosing.is(ExtensionDeclSyntax.self)
    }
}

private extension String {
    var replacingBackticks: String { filter { $0 != "`" } }
}

/// `@Managed` misuse, reported at the declaration.
private enum ManagedDiagnostic: String, DiagnosticMessage {
    case notAVariable, notVar, isStatic, oneProperty, noType, hasInitializer, hasAccessors, notInClass
    case keyNotALiteral, emptyKey

    var message: String {
        switch self {
        case .notAVariable: "@Managed applies to a 'var' property of a ManagedObject subclass"
        case .notVar: "@Managed requires 'var': the property is read from and written to the object's storage"
        case .isStatic: "@Managed applies to instance properties only, not to 'static' or 'class' ones"
        case .oneProperty: "@Managed applies to one property per declaration: declare each on its own 'var'"
        case .noType: "@Managed property needs an explicit type, e.g. 'var title: String'"
        case .hasInitializer: "@Managed property cannot have an initial value: give the attribute a default value in the model, or set it in awakeFromInsert()"
        case .hasAccessors: "@Managed property cannot have accessors or observers: the macro generates them"
        case .notInClass: "@Managed applies only to properties of a ManagedObject subclass"
        case .keyNotALiteral: "@Managed's key must be a string literal, e.g. @Managed(\"title\")"
        case .emptyKey: "@Managed's key must not be empty"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "OpenCoreDataMacros", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}
