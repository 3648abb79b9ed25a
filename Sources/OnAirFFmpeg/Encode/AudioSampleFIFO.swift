#if os(Linux)
import CFFmpeg

/// A first-in first-out store of converted samples that regroups them into encoder-sized frames.
///
/// Plain Swift storage (shim.h does not include libavutil/audio_fifo.h); holds no libav* object.
final class AudioSampleFIFO {
    private var planes: [[UInt8]]
    private var head = 0
    private let bytesPerSample: Int  // per plane

    init(format: AVSampleFormat, channels: Int) {
        let planar = av_sample_fmt_is_planar(format) != 0
        planes = Array(repeating: [], count: planar ? channels : 1)
        bytesPerSample = Int(av_get_bytes_per_sample(format)) * (planar ? 1 : channels)
    }

    /// Samples per channel waiting.
    var count: Int { ((planes.first?.count ?? 0) - head) / max(bytesPerSample, 1) }

    /// Appends the first `samples` samples of `frame`'s planes.
    func write(_ frame: OwnedFrame, samples: Int) {
        let bytes = samples * bytesPerSample
        guard bytes > 0, let data = frame.pointer.pointee.extended_data else { return }
        for index in planes.indices {
            guard let source = data[index] else { continue }
            planes[index].append(contentsOf: UnsafeBufferPointer(start: source, count: bytes))
        }
    }

    /// Moves `samples` (≤ `count`) samples into `frame`'s writable planes.
    func read(into frame: OwnedFrame, samples: Int) {
        let bytes = min(samples, count) * bytesPerSample
        guard bytes > 0, let data = frame.pointer.pointee.extended_data else { return }
        for index in planes.indices {
            guard let target = data[index] else { continue }
            planes[index].withUnsafeBufferPointer { source in
                target.update(from: source.baseAddress! + head, count: bytes)
            }
        }
        head += bytes
        if head > 1 << 16 || head == planes[0].count {
            for index in planes.indices { planes[index].removeFirst(head) }
            head = 0
        }
    }
}
#endif
