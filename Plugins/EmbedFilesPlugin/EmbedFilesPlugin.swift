import PackagePlugin

/// Embeds a target's web files (`.html`, `.css`, `.js`) into its code at build time: the
/// EmbedFiles tool writes them as string literals into `EmbeddedFiles.swift` (`enum
/// EmbeddedFiles`, one property per file, and `named(_:)`), which the target compiles with its
/// own sources. Unlike SwiftPM resources (on Linux a bundle folder beside the executable), the
/// files stay with the binary wherever it is copied. The files are edited as what they are; the
/// build runs the tool again when one changes.
@main struct EmbedFilesPlugin: BuildToolPlugin {
    /// The extensions of the files embedded.
    static let extensions: Set<String> = ["html", "css", "js"]

    /// One command: every web file of `target` into one generated source.
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target.sourceModule else { return [] }
        let inputs = module.sourceFiles.map(\.url).filter { Self.extensions.contains($0.pathExtension) }
            .sorted { $0.path < $1.path }
        guard !inputs.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) files into \(target.name)",
                executable: try context.tool(named: "EmbedFiles").url,
                arguments: [output.path, "EmbeddedFiles"] + inputs.map(\.path),
                inputFiles: inputs, outputFiles: [output])
        ]
    }
}
