// The build tool behind the EmbedFilesPlugin: reads text files and writes a Swift source in which
// each file's contents is a string literal, so that a target carries its files inside the binary
// (SwiftPM resources on Linux are a bundle folder beside the executable, which a copied binary
// loses).
//
//   EmbedFiles OUTPUT.swift ENUM FILE…
//
// OUTPUT gets `enum ENUM` with one `static let` per file, named after the file (`index.html` →
// `indexHTML`, `player.js` → `playerJS`), and `named(_:)`, which finds a file's contents by its
// name. It uses the C library only (no Foundation), so that it links quickly and without
// warnings in a build with --static-swift-stdlib.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A reason the tool stops, printed as the build's error.
struct EmbedFailure: Error {
    let message: String
}

/// One file to embed: its name, the Swift name of its property and its text.
struct EmbeddedFile {
    let path: String
    let name: String
    let identifier: String
    let text: String
}

/// The whole of the file at `path` as bytes.
func readBytes(_ path: String) throws(EmbedFailure) -> [UInt8] {
    guard let file = fopen(path, "rb") else {
        throw EmbedFailure(message: "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        bytes.append(contentsOf: chunk[0..<count])
        if count < chunk.count {
            guard ferror(file) == 0 else { throw EmbedFailure(message: "cannot read \(path)") }
            return bytes
        }
    }
}

/// Writes `text` to `path`, replacing what was there.
func writeText(_ text: String, to path: String) throws(EmbedFailure) {
    guard let file = fopen(path, "wb") else {
        throw EmbedFailure(message: "cannot create \(path): \(String(cString: strerror(errno)))")
    }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    guard fclose(file) == 0, written == bytes.count else { throw EmbedFailure(message: "cannot write \(path)") }
}

/// The Swift property name for a file called `name`: its parts in camel case, the extension in
/// capitals (`index.html` → `indexHTML`, `frame-code.js` → `frameCodeJS`).
func identifier(forFileNamed name: String) throws(EmbedFailure) -> String {
    var parts = name.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) }).map(String.init)
    guard !parts.isEmpty else { throw EmbedFailure(message: "no Swift name can be made from the file name \(name)") }
    let fileExtension = parts.count > 1 && name.contains(".") ? parts.removeLast().uppercased() : ""
    var result = ""
    for (index, part) in parts.enumerated() {
        result += index == 0 ? part.prefix(1).lowercased() + part.dropFirst() : part.prefix(1).uppercased() + part.dropFirst()
    }
    result += fileExtension
    return result.first!.isNumber ? "file" + result : result
}

/// `text` as a Swift string literal (quotes included) that evaluates to exactly `text`.
func stringLiteral(_ text: String) -> String {
    var literal = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": literal += "\\\\"
        case "\"": literal += "\\\""
        case "\n": literal += "\\n"
        case "\r": literal += "\\r"
        case "\t": literal += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            literal += "\\u{" + String(scalar.value, radix: 16) + "}"
        default: literal.unicodeScalars.append(scalar)
        }
    }
    return literal + "\""
}

/// The generated source for `files` as `enum name`.
func source(enumName: String, files: [EmbeddedFile]) -> String {
    var lines = [
        "// Generated at build time by EmbedFiles (Plugins/EmbedFilesPlugin) from \(files.count) files; do not edit.",
        "",
        "/// The files embedded into this target at build time, by name.",
        "enum \(enumName) {",
    ]
    for file in files {
        lines.append("    /// The text of `\(file.name)` (\(file.text.utf8.count) bytes).")
        lines.append("    static let \(file.identifier) = \(stringLiteral(file.text))")
        lines.append("")
    }
    lines.append("    /// The text of the embedded file called `name` (e.g. `\(files.first?.name ?? "index.html")`), or nil.")
    lines.append("    static func named(_ name: String) -> String? {")
    lines.append("        switch name {")
    for file in files {
        lines.append("        case \(stringLiteral(file.name)): \(file.identifier)")
    }
    lines.append("        default: nil")
    lines.append("        }")
    lines.append("    }")
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
}

/// Reads the files named on the command line and writes the source.
func run(_ arguments: [String]) throws(EmbedFailure) {
    guard arguments.count >= 2 else { throw EmbedFailure(message: "usage: EmbedFiles OUTPUT.swift ENUM FILE…") }
    let output = arguments[0], enumName = arguments[1]
    var files: [EmbeddedFile] = []
    for path in arguments.dropFirst(2).sorted() {
        let name = String(path.split(separator: "/").last ?? Substring(path))
        let bytes = try readBytes(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw EmbedFailure(message: "\(path) is not UTF-8 text")
        }
        let file = EmbeddedFile(path: path, name: name, identifier: try identifier(forFileNamed: name), text: text)
        if let other = files.first(where: { $0.name == file.name || $0.identifier == file.identifier }) {
            throw EmbedFailure(message: "\(other.path) and \(path) would have the same name in \(enumName)")
        }
        files.append(file)
    }
    try writeText(source(enumName: enumName, files: files), to: output)
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch {
    let line = Array("error: EmbedFiles: \(error.message)\n".utf8)
    _ = write(2, line, line.count)
    exit(1)
}
