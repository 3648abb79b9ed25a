#if os(Linux)
import OnAirTestSupport
import Testing

@testable import OnAirServing

/// The preview page's files as OnAirServing embeds them (Preview/EmbeddedFiles.swift, written by
/// scripts/embed-files.py): the same files as the page folder, each with the same text, so a page
/// file edited without running the script again fails here.
struct EmbeddedPageFilesTests {
    /// What a failure asks for.
    static let regenerate = "run python3 scripts/embed-files.py and commit Sources/OnAirServing/Preview/EmbeddedFiles.swift"

    @Test func everyPageFileIsEmbeddedAsItIsAndNothingElse() throws {
        let files = try Tools.previewPageFiles()
        #expect(!files.isEmpty)
        #expect(
            EmbeddedFiles.names == files.keys.sorted(),
            "the page folder holds \(files.keys.sorted()), EmbeddedFiles \(EmbeddedFiles.names): \(Self.regenerate)")
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            let embedded = EmbeddedFiles.named(name) == text  // not the texts themselves: pages of them in a failure
            #expect(embedded, "\(name) differs from its embedded text: \(Self.regenerate)")
        }
        #expect(EmbeddedFiles.named("missing.js") == nil)
        #expect(EmbeddedFiles.indexHTML == files["index.html"])
    }
}
#endif
