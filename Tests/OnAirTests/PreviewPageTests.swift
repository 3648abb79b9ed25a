#if os(Linux)
import Testing

@testable import OnAir
@testable import OnAirServing

/// How `PreviewPage` makes one document of `index.html` and the files it links.
struct PreviewPageTests {
    @Test func inlinesTheStyleSheetAndEachRunOfScripts() {
        let files = ["s.css": "p {}\n", "a.js": "a();\n", "b.js": "b();\n", "c.js": "c();\n"]
        let document = """
            <head>
            <link rel="stylesheet" href="s.css">
            </head>
              <script src="a.js"></script>
            <script src="b.js"></script>
            <p>between</p>
            <script src="c.js"></script>
            <script src="missing.js"></script>

            """
        let page = PreviewPage.inlined(document, file: { files[$0] })
        #expect(
            page == """
                <head>
                <style>
                p {}
                </style>
                </head>
                <script>
                'use strict';
                a();
                b();
                </script>
                <p>between</p>
                <script>
                'use strict';
                c();
                </script>
                <script src="missing.js"></script>

                """)
    }

    @Test func thePageHasEveryFileInlineAndTheListWhereTheMarkerWas() {
        let page = PreviewPage.html(formats: ["live.mp4"], srtPort: nil, query: "")
        #expect(!page.contains(PreviewPage.servedMarker) && !page.contains("<script src"))
        #expect(page.contains(EmbeddedFiles.styleCSS) && page.contains(EmbeddedFiles.mp4JS) && page.contains(EmbeddedFiles.mainJS))
        let list = page.range(of: "<section class=\"served\">")
        let script = page.range(of: "<script>")
        #expect(list != nil && script != nil && list!.lowerBound < script!.lowerBound)
        #expect(page.hasSuffix("</script>\n</body>\n</html>\n"))
    }
}
#endif
