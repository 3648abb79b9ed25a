import OnAirServeConfig

/// libFuzzer entry point: reads arbitrary bytes as a serve configuration file. The reader either
/// refuses them with a `ServeConfigError` naming a line within the file, or gives a mapping within
/// the depth bound; when the keys resolve, `--print-config`'s text reads back to the same values.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Line breaks as YAML (and libyaml) counts them: LF, CR LF and a CR alone.
    let breaks = bytes.indices.filter { bytes[$0] == 0x0A || (bytes[$0] == 0x0D && bytes.indices.last != $0 && bytes[$0 + 1] != 0x0A) }
    let lines = breaks.count + (bytes.last == 0x0D ? 1 : 0) + 2
    let root: ServeConfigNode
    do {
        root = try ServeConfigReader.parse(bytes, name: "fuzz.yml")
    } catch let error as ServeConfigError {
        if let line = error.line, line < 1 || line > lines { fatalError("error line \(line) outside the file") }
        return 0
    } catch {
        fatalError("unexpected error \(error)")
    }
    guard case .map = root.content else { fatalError("the root is not a mapping") }
    guard depth(root) <= ServeConfigReader.maximumDepth + 1 else { fatalError("nested past the bound") }
    guard let resolution = try? ServeConfigResolution(root: root, file: "fuzz.yml", environment: [:], commandLine: []) else {
        return 0
    }
    let printed = resolution.printed()
    let again: ServeConfigResolution
    do {
        again = try ServeConfigResolution(
            root: try ServeConfigReader.parse(Array(printed.utf8), name: "printed.yml"), file: "printed.yml", environment: [:],
            commandLine: [])
    } catch {
        fatalError("the printed configuration does not read back: \(error)\n\(printed)")
    }
    for key in ServeConfigKey.all where !key.secret && key.name != "users" {
        guard again.settings[key.name]?.values == resolution.settings[key.name]?.values else {
            fatalError("key \(key.name) reads back differently")
        }
    }
    guard again.arguments.count == resolution.arguments.count else { fatalError("arguments differ after printing") }
    return 0
}

private func depth(_ node: ServeConfigNode) -> Int {
    switch node.content {
    case .scalar: 0
    case .list(let items): 1 + (items.map(depth).max() ?? 0)
    case .map(let entries): 1 + (entries.map { depth($0.value) }.max() ?? 0)
    }
}
