#if os(Linux)
import OnAirLive

/// `/metrics` of `onair serve`: the `/stats.json` document, the health judge's counts and the
/// process figures in the Prometheus text format. Names follow MediaMTX's where it has one
/// (viewers and bytes per face), with units in the name; labels are only the face (`http`, `srt`,
/// `rtsp`, `webrtc`) and the container, never a viewer or an address, so the series stay bounded.
package enum ServeMetrics {
    /// The faces a label may name; any other transport counts as `other`.
    static let faces = ["http", "srt", "rtsp"]

    /// The exposition for one scrape.
    package static func text(
        document: ServeStatisticsDocument, health: ServeHealth?, process: ServeProcessFigures, maxViewers: Int,
        motion: ServeMotion.Figures? = nil
    ) -> String {
        var out = PrometheusExposition()
        func face(_ transport: String) -> String { faces.contains(transport) ? transport : "other" }
        let webRTC = document.webrtcViewers ?? []
        var viewersByFace: [String: Double] = ["http": 0, "srt": 0, "rtsp": 0, "webrtc": Double(webRTC.count)]
        var viewersByFormat: [String: Double] = [:]
        var bytesByFace: [String: Double] = ["http": 0, "srt": 0, "rtsp": 0]
        for (transport, bytes) in document.totals.bytesSentOfViewersGone { bytesByFace[face(transport), default: 0] += Double(bytes) }
        var queueBytes = 0.0, skips = Double(document.totals.skipsOfViewersGone)
        for viewer in document.viewers {
            viewersByFace[face(viewer.transport), default: 0] += 1
            viewersByFormat[viewer.format.rawValue, default: 0] += 1
            bytesByFace[face(viewer.transport), default: 0] += Double(viewer.bytesSent)
            queueBytes += Double(viewer.queueBytes)
            skips += Double(viewer.skips)
        }
        out.add(
            "onair_viewers", .gauge, "Viewers served now, by face.",
            viewersByFace.sorted { $0.key < $1.key }.map { ([("face", $0.key)], $0.value) })
        out.add(
            "onair_viewers_bytes_sent_total", .counter,
            "Bytes handed to viewers' transports (HTTP, SRT, RTSP), departed viewers included.",
            bytesByFace.sorted { $0.key < $1.key }.map { ([("face", $0.key)], $0.value) })
        out.add("onair_viewers_max", .gauge, "The most viewers served at once (--max-viewers).", Double(maxViewers))
        out.add("onair_viewers_peak", .gauge, "The most viewers served at once since the start.", Double(document.totals.peakViewers))
        out.add("onair_viewers_served_total", .counter, "Viewers admitted since the start.", Double(document.totals.served))
        out.add(
            "onair_viewers_refused_total", .counter, "Viewers refused because --max-viewers were served.",
            Double(document.totals.refusedFull))
        out.add(
            "onair_viewers_cut_total", .counter, "Viewers cut for staying --viewer-timeout behind.", Double(document.totals.cutTooSlow))
        out.add(
            "onair_viewers_cut_token_removed_total", .counter, "Viewers cut because a reload removed the token that admitted them.",
            Double(document.totals.cutCredentialWithdrawn))
        out.add("onair_viewers_skips_total", .counter, "Skips of viewers to a later keyframe (queue full).", skips)
        out.add("onair_viewers_queue_bytes", .gauge, "Bytes waiting in every viewer's queue together.", queueBytes)
        let srt = document.viewers.filter { $0.transport == "srt" }
        if !srt.isEmpty {
            out.add(
                "onair_srt_viewers_rtt_max_seconds", .gauge, "The longest round-trip time of the SRT callers now.",
                (srt.compactMap(\.rttMs).max() ?? 0) / 1000)
            out.add(
                "onair_srt_viewers_packets_lost", .gauge, "Packets lost (retransmitted) over the SRT callers now.",
                Double(srt.compactMap(\.lostPackets).reduce(0, +)))
        }
        if !webRTC.isEmpty {
            out.add(
                "onair_webrtc_viewers_rtt_max_seconds", .gauge, "The longest round-trip time of the WebRTC viewers now.",
                (webRTC.compactMap(\.roundTripMilliseconds).max() ?? 0) / 1000)
            out.add(
                "onair_webrtc_viewers_packets_lost", .gauge, "Packets the WebRTC viewers report lost, summed over those now.",
                Double(webRTC.compactMap(\.packetsLost).reduce(0, +)))
        }
        if let encoder = document.encoder { encoderFamilies(encoder, into: &out) }
        if let health {
            out.add(
                "onair_outputs_failed_total", .counter, "Outputs (-o recordings, network outputs) that failed.",
                Double(health.outputFailures))
            out.add("onair_healthy", .gauge, "1 while /healthz answers 200, else 0.", health.verdict().isHealthy ? 1 : 0)
            if let clock = health.watchedClock {
                out.add(
                    "onair_clock_steps_total", .counter, "Steps of the wall clock seen (recording keeps to the monotonic time line).",
                    Double(clock.steps))
                out.add(
                    "onair_clock_synchronized", .gauge, "1 while the kernel says the wall clock is synchronized (NTP), else 0.",
                    clock.synchronized() ? 1 : 0)
            }
        }
        if let motion, motion.enabled {
            out.add(
                "onair_motion_events_total", .counter, "Changes of the motion detector's state (--motion), by change.",
                [([("change", "ended")], Double(motion.ends)), ([("change", "started")], Double(motion.starts))])
            out.add("onair_motion_active", .gauge, "1 while the motion detector sees motion, else 0.", motion.active ? 1 : 0)
        }
        out.add(
            "onair_http_requests_timed_out_total", .counter, "HTTP requests cut because their header took too long.",
            Double(document.requestsTimedOut))
        out.add("process_cpu_seconds_total", .counter, "User and system CPU time spent, in seconds.", process.cpuSeconds)
        out.add("process_resident_memory_bytes", .gauge, "Resident memory size in bytes.", process.residentBytes)
        out.add("process_virtual_memory_bytes", .gauge, "Virtual memory size in bytes.", process.virtualBytes)
        out.add("process_open_fds", .gauge, "Open file descriptors.", process.openFileDescriptors)
        out.add("process_max_fds", .gauge, "The limit of open file descriptors.", process.maximumFileDescriptors)
        out.add(
            "process_start_time_seconds", .gauge, "Start time of the process since the Unix epoch, in seconds.", process.startTimeSeconds)
        return out.text
    }

    private static func encoderFamilies(_ encoder: LiveStatistics, into out: inout PrometheusExposition) {
        out.add("onair_capture_frames_total", .counter, "Video frames the capture delivered.", Double(encoder.framesIn))
        out.add("onair_encoder_frames_total", .counter, "Video frames encoded.", Double(encoder.framesOut))
        out.add("onair_encoder_audio_frames_total", .counter, "Audio frames encoded.", Double(encoder.audioFramesOut))
        out.add(
            "onair_encoder_keyframes_forced_total", .counter,
            "Video keyframes made on request (WebRTC viewers joining or asking, outputs reconnecting, encode restarts).",
            Double(encoder.keyFramesForced))
        out.add("onair_encoder_frames_dropped_total", .counter, "Video frames dropped before the encoder.", Double(encoder.droppedFrames))
        out.add(
            "onair_capture_frames_skipped_total", .counter, "Video frames the source skipped (late or repeated).",
            Double(encoder.sourceSkippedFrames))
        out.add("onair_capture_fps", .gauge, "Video frames per second the capture delivers.", encoder.fpsIn)
        out.add("onair_encoder_fps", .gauge, "Video frames per second encoded.", encoder.fpsOut)
        out.add(
            "onair_encoder_latency_seconds", .gauge, "Encode latency of the last second's frames, mean.", encoder.encodeLatencyMs / 1000)
        out.add("onair_encoder_latency_p50_seconds", .gauge, "Encode latency, median.", encoder.encodeLatencyP50Ms / 1000)
        out.add("onair_encoder_latency_p99_seconds", .gauge, "Encode latency, 99th percentile.", encoder.encodeLatencyP99Ms / 1000)
        out.add(
            "onair_encoder_video_bytes_per_second", .gauge, "Video bytes per second over the last second.", Double(encoder.videoBitRate) / 8
        )
        out.add(
            "onair_encoder_audio_bytes_per_second", .gauge, "Audio bytes per second over the last second.", Double(encoder.audioBitRate) / 8
        )
        out.add(
            "onair_outputs_packets_dropped_total", .counter, "Packets the file outputs' queue dropped.", Double(encoder.sinkDroppedPackets))
        if let written = encoder.recordingBytesWritten {
            out.add("onair_recording_bytes_written_total", .counter, "Bytes written to the segmented recording's files.", Double(written))
        }
        if let deleted = encoder.recordingSegmentsDeleted {
            out.add(
                "onair_recording_segments_deleted_total", .counter, "Recording segments the retention policy deleted.", Double(deleted))
        }
        out.add("onair_outputs_reconnects_total", .counter, "Reconnects of network outputs.", Double(encoder.reconnects))
        out.add(
            "onair_outputs_network_packets_dropped_total", .counter, "Packets network outputs dropped.",
            Double(encoder.networkDroppedPackets))
    }
}
#endif
