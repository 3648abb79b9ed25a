/// Where the frame code's cells sit in a picture of a given size.
///
/// The code is a grid of square cells, `columns`×`rows`, whose top-left corner is one cell in from
/// the picture's top-left corner. The outer ring of the grid is a white quiet zone; column 1 is a
/// solid black start bar, column `columns - 2` a black/white clock track, and the cells between them
/// carry the payload bits. The cell size scales with the picture so the code survives coding at any
/// size down to 160×120.
package struct FrameCodeLayout: Sendable, Equatable {
    /// Payload columns.
    package static let dataColumns = 12
    /// Payload rows.
    package static let dataRows = 8
    /// Grid columns: quiet, start bar, data, clock track, quiet.
    package static let columns = dataColumns + 4
    /// Grid rows: quiet, data, quiet.
    package static let rows = dataRows + 2
    /// The payload size in bits.
    package static let bitCount = dataColumns * dataRows

    /// The edge length of one cell in pixels.
    package let cell: Int
    /// The grid's left edge in pixels.
    package let originX: Int
    /// The grid's top edge in pixels.
    package let originY: Int

    /// The layout used for a `width`×`height` picture, or nil when the picture is too small to
    /// hold a readable code (cells under 3 pixels).
    package init?(width: Int, height: Int) {
        guard width > 0, height > 0 else { return nil }
        var cell = max(6, min(width / 64, height / 36))
        cell = min(cell, width / (Self.columns + 1), height / (Self.rows + 1))
        guard cell >= 3 else { return nil }
        self.init(cell: cell, originX: cell, originY: cell)
    }

    /// The layout of the second code, which carries the sender's wall-clock time (see
    /// `FrameCode.readWallClock(from:)`): same cells, one cell to the right of the first code; nil
    /// when the picture is too narrow for both.
    package static func wallClock(width: Int, height: Int) -> FrameCodeLayout? {
        guard let first = FrameCodeLayout(width: width, height: height) else { return nil }
        let second = FrameCodeLayout(
            cell: first.cell, originX: first.originX + (columns + 1) * first.cell,
            originY: first.originY)
        return second.originX + columns * second.cell + second.cell <= width ? second : nil
    }

    /// The rectangle covering both codes (the second only when the picture has room for it), as
    /// (x, y, width, height); nil when the picture is too small for a code.
    package static func codeArea(width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let first = FrameCodeLayout(width: width, height: height)?.bounds else { return nil }
        guard let second = wallClock(width: width, height: height)?.bounds else { return first }
        return (first.x, first.y, second.x + second.width - first.x, first.height)
    }

    /// A layout with an explicit cell size and origin (used when searching a shifted code).
    package init(cell: Int, originX: Int, originY: Int) {
        self.cell = cell
        self.originX = originX
        self.originY = originY
    }

    /// The pixel rectangle covered by the whole grid, as (x, y, width, height).
    package var bounds: (x: Int, y: Int, width: Int, height: Int) {
        (originX, originY, cell * Self.columns, cell * Self.rows)
    }

    /// The grid position (column, row) of payload bit `bit`, row-major from the top-left data cell.
    package static func position(ofBit bit: Int) -> (column: Int, row: Int) {
        (2 + bit % dataColumns, 1 + bit / dataColumns)
    }

    /// Whether the clock-track cell in grid row `row` is white (rows alternate, starting black).
    package static func clockIsWhite(row: Int) -> Bool { row % 2 == 0 }
}
