#if os(Linux)
import Foundation
import OnAirCore
import OnAirLive

/// Writes decoded audio as a RIFF/WAVE file: 16- or 32-bit integer or 32-bit float PCM,
/// interleaved, in the format of the first buffer. Every write, the header completed at the end
/// and the close are checked (`FileOutput`).
package final class WAVWriter {
    /// Where the samples go.
    public let path: String
    private let file: FileOutput
    private var format: (sampleFormat: PCMSampleFormat, sampleRate: Int, channels: Int)?
    private var dataBytes = 0
    private var buffersWritten = 0

    /// Creates (or truncates) `path`; the header is completed by `finish()`.
    public init(path: String) throws(PlaybackError) {
        self.path = path
        file = try PlaybackError.writing(path) { try FileOutput(path: path) }
    }

    /// Appends one buffer; later buffers must have the first one's format, rate and channels.
    public func write(_ buffer: PCMBuffer) throws(PlaybackError) {
        guard buffer.layoutProblem() == nil else {
            throw PlaybackError.writeFailed(path: path, reason: "malformed audio buffer")
        }
        if let format {
            guard format == (buffer.sampleFormat, buffer.sampleRate, buffer.channels) else {
                throw PlaybackError.writeFailed(path: path, reason: "the audio format changed")
            }
        } else {
            format = (buffer.sampleFormat, buffer.sampleRate, buffer.channels)
            file.startHeader()
            try put(header(dataBytes: 0))
        }
        file.startPacket(buffersWritten)
        buffersWritten += 1
        let width = buffer.sampleFormat.bytesPerSample
        var interleaved: [UInt8]
        if buffer.isPlanar && buffer.channels > 1 {
            interleaved = [UInt8](repeating: 0, count: buffer.frameCount * buffer.channels * width)
            for channel in 0..<buffer.channels {
                let plane = buffer.planes[channel]
                for frame in 0..<buffer.frameCount {
                    let target = (frame * buffer.channels + channel) * width
                    for byte in 0..<width { interleaved[target + byte] = plane[frame * width + byte] }
                }
            }
        } else {
            interleaved = Array(buffer.planes[0].prefix(buffer.frameCount * buffer.channels * width))
        }
        dataBytes += interleaved.count
        try put(Data(interleaved))
    }

    /// Fills in the sizes in the header, flushes the file to disk and closes it.
    public func finish() throws(PlaybackError) {
        try PlaybackError.writing(path) {
            if format != nil {
                file.startTrailer()
                try file.write(header(dataBytes: dataBytes), at: 0)
            }
            try file.close()
        }
    }

    private func put(_ data: Data) throws(PlaybackError) {
        try PlaybackError.writing(path) { try file.write(data) }
    }

    private func header(dataBytes: Int) -> Data {
        guard let format else { return Data() }
        let width = format.sampleFormat.bytesPerSample
        let isFloat = format.sampleFormat == .f32
        var data = Data()
        func u32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
        data.append(Data("RIFF".utf8)); u32(36 + dataBytes); data.append(Data("WAVE".utf8))
        data.append(Data("fmt ".utf8)); u32(16); u16(isFloat ? 3 : 1); u16(format.channels)
        u32(format.sampleRate); u32(format.sampleRate * format.channels * width); u16(format.channels * width); u16(width * 8)
        data.append(Data("data".utf8)); u32(dataBytes)
        return data
    }
}
#endif
