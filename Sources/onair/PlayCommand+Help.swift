#if os(Linux)
extension PlayCommand {
    static let help = """
        Usage: onair play URL [--latency MS] [--fullscreen] [--no-display] [--no-audio] [--duration S]
                              [--stats-json FILE] [--json] [-o OUT] [--measure-latency]

        Opens anything FFmpeg opens — a file, udp://HOST:PORT, tcp://HOST:PORT?listen, srt://HOST:PORT
        (caller, or ?mode=listener), rtmp://…, an HLS playlist over http:// — decodes its H.264 and
        AAC, shows the picture in a window and plays the sound, in sync (the sound is the clock; late
        frames are dropped and counted). Live URLs are opened with low-delay options and played with a
        small jitter buffer (--latency); when the delay grows the player catches up (drops video, plays
        the sound slightly faster). Files play at their own pace. A live stream that stops leaves the
        window open, saying so, and playback resumes when it comes back. A status line appears on
        stderr once a second. Without a display (or with --no-display) nothing is shown or played:
        the input is decoded as fast as it comes, as for a measurement.

        onair play --analyze-screen REC [--json]: REC is a recording of a player's screen and speakers
        made while it showed the live synthetic source (ffmpeg -f x11grab … -f pulse -i SINK.monitor
        -copyts; window size = video size); prints the frames seen in order, skipped and repeated, the
        glass-to-glass latency and the A/V offset of the flashes seen and beeps heard.

        Keys: f full screen · i statistics overlay (fps, bitrate, latency, drops) · space pause (files)
              · q or Esc quit.

        Freezes: a gap in the video timestamps longer than 3 frame durations, or no frame for more than
        0.5 s while the input is open. Decode errors: packets the decoder rejected, frames it flagged
        as damaged, and packets the demuxer marked as corrupt.

          --latency MS          live jitter buffer: the least sound kept queued ahead of the speakers
                                (default 10); a standing backlog above it is played away
          --fullscreen          start in full screen
          --no-display          no window and no sound: decode only (today's measuring receiver)
          --no-audio            show the picture only (paced by the wall clock)
          --duration S          stop after S seconds of received media
          --json                print the totals as JSON at the end
          --stats-json FILE     the once-a-second statistics as JSON lines
          -o, --output OUT      .y4m: decoded video; .wav: decoded audio; .mp4/.mov/.ts/.mkv: a copy of the packets
          --measure-latency     read the wall-clock code the live synthetic source puts in every frame and
                                report end-to-end latency (receiver's wall clock at decode minus the sender's
                                at capture; both must run on the same machine or synchronised clocks)
          --timeout S           give up when nothing is decoded within S seconds (default 10)
          --hwaccel TYPE        hardware video decoding: auto (default: the first device that opens,
                                else software), none, or one device type (vaapi, cuda, vdpau, qsv,
                                videotoolbox, …: an error when it cannot be had)
        """
}
#endif
