#if os(Linux)
import CSDL2
import Foundation
import OnAirCore

/// The machine's sound output through SDL2, fed by a queue of interleaved 32-bit float samples.
///
/// The device is opened at the rate and channel count it prefers (close to what is asked), so
/// the caller resamples to `sampleRate`/`channels`. It starts paused. `queue`, `queuedFrames`,
/// `clear` and `setPaused` may be called from any thread (SDL locks the device).
/// Unchecked Sendable: an SDL audio device id; SDL locks the device inside each call used here (queue, size, clear, pause)
package final class SDLAudioOutput: @unchecked Sendable {
    private let device: SDL_AudioDeviceID
    /// The device's sample rate.
    package let sampleRate: Int
    /// The device's channel count.
    package let channels: Int
    /// The device's own buffer in sample frames (one period of delay after the queue).
    package let bufferFrames: Int

    /// Opens the default output device, asking for `sampleRate` Hz, `channels` channels and a
    /// buffer of `bufferFrames`; throws when there is no audio device.
    package init(sampleRate: Int = 48_000, channels: Int = 2, bufferFrames: Int = 512) throws(SDLError) {
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        guard SDL_InitSubSystem(SDL_INIT_AUDIO) == 0 else { throw SDLError("initialise SDL audio") }
        var wanted = SDL_AudioSpec()
        wanted.freq = Int32(sampleRate)
        wanted.format = SDL_AudioFormat(AUDIO_F32SYS)
        wanted.channels = UInt8(clamping: channels)
        wanted.samples = UInt16(clamping: bufferFrames)
        var obtained = SDL_AudioSpec()
        let allowed = Int32(SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE)
        let device = SDL_OpenAudioDevice(nil, 0, &wanted, &obtained, allowed)
        guard device != 0 else {
            let error = SDLError("open the audio device")
            SDL_QuitSubSystem(SDL_INIT_AUDIO)
            throw error
        }
        self.device = device
        self.sampleRate = Int(obtained.freq)
        self.channels = Int(obtained.channels)
        self.bufferFrames = Int(obtained.samples)
    }

    deinit {
        SDL_CloseAudioDevice(device)
        SDL_QuitSubSystem(SDL_INIT_AUDIO)
    }

    /// The name of SDL's audio driver ("pulseaudio", "alsa", …).
    package var driver: String { SDL_GetCurrentAudioDriver().map { String(cString: $0) } ?? "none" }

    /// Appends interleaved samples (`channels` per frame) to the device's queue.
    package func queue(_ samples: [Float]) throws(SDLError) {
        guard !samples.isEmpty else { return }
        let status = samples.withUnsafeBytes { SDL_QueueAudio(device, $0.baseAddress, UInt32($0.count)) }
        guard status == 0 else { throw SDLError("queue audio") }
    }

    /// Sample frames queued and not yet handed to the device.
    package var queuedFrames: Int {
        Int(SDL_GetQueuedAudioSize(device)) / (4 * max(channels, 1))
    }

    /// Drops everything queued.
    package func clear() { SDL_ClearQueuedAudio(device) }

    /// Pauses (the device plays silence, the queue stays) or resumes playback.
    package func setPaused(_ paused: Bool) { SDL_PauseAudioDevice(device, paused ? 1 : 0) }
}
#endif
