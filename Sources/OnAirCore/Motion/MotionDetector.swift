/// A cheap motion detector on a picture's luma: each analysed frame is reduced to a grid of cell
/// means (a few samples per cell), compared cell by cell with the previous grid after removing the
/// change all cells share (a lighting ramp, an exposure step), and the cells that changed by more
/// than the sensitivity's threshold are grouped by 4-neighbourhood. The changed area is the cells
/// of the groups of two cells or more (a lone cell is noise); a moving object changes its leading
/// and trailing edges from one frame to the next. Motion starts on the first frame whose changed
/// area covers `minimumArea` of the picture, and ends once no such frame has come for `holdTime`.
/// Sensor noise averages out in the cells; an object smaller than the minimum area changes too few.
///
/// Times are the caller's (the frames' capture times, in seconds): nothing here reads a clock.
/// Not thread-safe: one caller feeds it.
package struct MotionDetector: Sendable {
    /// What the detector is told to look for.
    package struct Settings: Sendable, Equatable {
        /// Grid columns.
        package var columns = 32
        /// Grid rows.
        package var rows = 18
        /// 0 (only large, strong changes) to 1 (the faintest): a cell changes when its mean moves
        /// by more than 24 − 20 × sensitivity luma levels beyond the shared change.
        package var sensitivity = 0.5
        /// The smallest group of changed cells that is motion, as a fraction of the picture (0–1].
        package var minimumArea = 0.02
        /// Seconds without motion before motion ends.
        package var holdTime = 2.0
        /// Seconds between analysed frames at least (frames in between are skipped): 0.2 is 5 fps.
        package var interval = 0.2

        /// The defaults: a 32×18 grid, sensitivity 0.5, 2 % of the picture, 2 s hold, 5 fps.
        package init() {}

        /// The luma change that makes a cell count as changed.
        package var threshold: Double { 24 - 20 * min(1, max(0, sensitivity)) }

        /// The cells the smallest motion covers (at least one).
        package var minimumCells: Int { max(1, Int((minimumArea * Double(columns * rows)).rounded(.up))) }
    }

    /// A change of the motion state.
    package enum Change: Sendable, Equatable {
        /// Motion started at this time.
        case started(at: Double)
        /// Motion ended at this time (the hold after the last motion ran out).
        case ended(at: Double)
    }

    /// The settings in force.
    package let settings: Settings
    /// Whether there is motion now.
    package private(set) var isMotion = false
    /// The changed area of the last analysed frame, in cells.
    package private(set) var lastArea = 0
    private var previous: [Double] = []
    private var lastAnalysed = -Double.infinity
    private var lastMotion = -Double.infinity

    /// A detector with `settings`.
    package init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Analyses one picture's luma plane (`width`×`height`, rows `bytesPerRow` apart, at least
    /// `bytesPerRow × (height − 1) + width` bytes) captured at `time`; returns the state's change,
    /// if any. Frames sooner than `interval` after the last analysed one only let the hold run out.
    package mutating func analyze(luma: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, at time: Double) -> Change? {
        let columns = settings.columns, rows = settings.rows
        guard width >= columns, height >= rows, bytesPerRow >= width, luma.count >= bytesPerRow * (height - 1) + width else {
            return expire(at: time)
        }
        guard time - lastAnalysed >= settings.interval * 0.9 else { return expire(at: time) }
        lastAnalysed = time
        // Cell means from a 4×4 lattice of samples per cell.
        var grid = [Double](repeating: 0, count: columns * rows)
        for row in 0..<rows {
            let top = row * height / rows, bottom = (row + 1) * height / rows
            for column in 0..<columns {
                let left = column * width / columns, right = (column + 1) * width / columns
                var sum = 0
                for step in 0..<4 {
                    let y = top + (bottom - top) * (2 * step + 1) / 8
                    for across in 0..<4 {
                        let x = left + (right - left) * (2 * across + 1) / 8
                        sum += Int(luma[y * bytesPerRow + x])
                    }
                }
                grid[row * columns + column] = Double(sum) / 16
            }
        }
        defer { previous = grid }
        guard previous.count == grid.count else { return expire(at: time) }
        // The change every cell shares (lighting): the median of the differences.
        let differences = zip(grid, previous).map { $0 - $1 }
        let shared = differences.sorted()[differences.count / 2]
        let changed = differences.map { abs($0 - shared) > settings.threshold }
        lastArea = Self.changedArea(changed, columns: columns, rows: rows)
        if lastArea >= settings.minimumCells {
            lastMotion = time
            if !isMotion {
                isMotion = true
                return .started(at: time)
            }
            return nil
        }
        return expire(at: time)
    }

    /// Ends motion when its hold has run out at `time` (also for a source that stopped sending).
    package mutating func expire(at time: Double) -> Change? {
        guard isMotion, time - lastMotion >= settings.holdTime else { return nil }
        isMotion = false
        return .ended(at: time)
    }

    /// The `true` cells of a `columns`×`rows` grid that belong to a 4-connected group of two or more.
    package static func changedArea(_ cells: [Bool], columns: Int, rows: Int) -> Int {
        var seen = [Bool](repeating: false, count: cells.count)
        var area = 0
        var stack: [Int] = []
        for start in cells.indices where cells[start] && !seen[start] {
            var size = 0
            seen[start] = true
            stack.append(start)
            while let cell = stack.popLast() {
                size += 1
                let row = cell / columns, column = cell % columns
                let neighbours = [
                    column > 0 ? cell - 1 : -1, column < columns - 1 ? cell + 1 : -1, row > 0 ? cell - columns : -1,
                    row < rows - 1 ? cell + columns : -1,
                ]
                for next in neighbours where next >= 0 && cells[next] && !seen[next] {
                    seen[next] = true
                    stack.append(next)
                }
            }
            if size >= 2 { area += size }
        }
        return area
    }
}
