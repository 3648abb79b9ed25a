#!/usr/bin/env python3
"""Many WHEP viewers on aiortc (from PyPI) in one process, for the WebRTC load and loss tests and
bench/serve_viewers.sh. Independent of OnAir's WebRTC code.

Each viewer POSTs a receive-only offer (video + audio), applies the answer and receives for
--seconds, then DELETEs its session (unless --no-delete). The first --decode viewers decode with
aiortc's own decoders (FFmpeg through PyAV); the others only count the frames aiortc's jitter
buffer reassembles (decoding 16 or 32 streams would take the machine's two cores from the server).
Traffic stays on loopback: no ICE servers, host candidates on 127.0.0.1 only.

For every viewer it prints, in one JSON object, the HTTP statuses, video frames (decoded, or
reassembled when not decoding), keyframes among them, audio frames, the NACKs and PLIs it sent and
the keyframes that followed its PLIs (video NACKs are repeated while the packets are missing, as
browsers do: see nack_again), and for decoding viewers the decode errors, corrupt pictures,
the longest time from a decode error or corrupt picture to the next clean picture and the longest
gap between pictures. --pli-every N makes viewer 0 send a burst of five PLIs every N seconds (what
a browser does after a loss it cannot repair), to see that the server answers a burst with one IDR.
"""
import argparse
import asyncio
import json
import logging
import ssl
import threading
import time
import urllib.request

import aioice.ice
import aiortc.rtcrtpreceiver as receiver_module
from aiortc import RTCConfiguration, RTCPeerConnection, RTCSessionDescription
from aiortc.rtcrtpreceiver import RTCRtpReceiver
from whep_client import request  # the same HTTP half as the single viewer (it also notes sender reports)

# aioice gathers host candidates on every address but loopback; keep it on loopback only.
aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: ["127.0.0.1"]


def now():
    return time.monotonic()


class Viewer:
    """One viewer's figures (written from the event loop and its decoder threads)."""

    def __init__(self, index, decode):
        self.index = index
        self.decode = decode
        self.lock = threading.Lock()
        self.video_frames = 0
        self.audio_frames = 0
        self.key_frames = []
        self.frame_times = []
        self.bad_times = []
        self.corrupt = 0
        self.decode_errors = 0
        self.messages = []
        self.nacks = 0
        self.plis = []
        self.test_plis = []
        self.first_video = self.last_video = None
        self.media_ssrcs = {}
        self.nacks_repeated = 0
        self.began = None
        self.result = {"index": index, "decoded": decode}

    def video_arrived(self):
        """Notes a reassembled video frame's arrival (under the lock)."""
        self.last_video = now()
        if self.first_video is None:
            self.first_video = self.last_video

    def bad(self, message=None):
        with self.lock:
            self.bad_times.append(now())
            if message is not None:
                self.decode_errors += 1
                if len(self.messages) < 5:
                    self.messages.append(message)

    def summary(self, seconds):
        with self.lock:
            frames = list(self.frame_times)
            bads = sorted(self.bad_times)
            keys = list(self.key_frames)
        longest_unclean = 0.0
        for bad in bads:
            clean = next((t for t, ok in frames if t > bad and ok), None)
            longest_unclean = max(longest_unclean, (clean if clean is not None else bads[-1] + seconds) - bad)
        times = [t for t, _ in frames]
        gaps = [b - a for a, b in zip(times, times[1:])]
        # The keyframes within 1.5 s after each test burst of PLIs; a burst is disturbed when some
        # viewer's own PLI (aiortc's, after a loss it could not repair) came near it.
        bursts = []
        for t in self.test_plis:
            if not bursts or t - bursts[-1] > 0.5:
                bursts.append(t)
        answered = [sum(1 for k in keys if b < k <= b + 1.5) for b in bursts]
        disturbed = [any(b - 0.3 < t <= b + 1.5 for t in own_plis) for b in bursts]
        self.result.update({
            "video_frames": self.video_frames, "audio_frames": self.audio_frames, "key_frames": len(keys),
            "nacks_sent": self.nacks, "nacks_repeated": self.nacks_repeated, "own_plis_sent": len(self.plis), "pli_bursts": len(bursts),
            "keyframes_after_bursts": answered, "bursts_disturbed": disturbed,
            "first_keyframe_after_bursts": [
                round(min([k - b for k in keys if k > b], default=-1), 3) for b in bursts],
            "first_frame_seconds": round(self.first_video - self.began, 3) if self.first_video and self.began else None,
            "span_seconds": round(self.last_video - self.first_video, 3) if self.first_video else None,
        })
        if self.decode:
            self.result.update({
                "decode_errors": self.decode_errors, "decode_messages": self.messages, "corrupt_frames": self.corrupt,
                "longest_unclean_seconds": round(longest_unclean, 3),
                "longest_gap_seconds": round(max(gaps), 3) if gaps else None,
            })
        return self.result


viewers_by_queue = {}
viewers_by_thread = {}
viewers_by_receiver = {}
_original_worker = receiver_module.decoder_worker


def is_keyframe(data):
    """Whether Annex-B `data` holds an IDR slice (NAL type 5)."""
    index = data.find(b"\x00\x00\x01")
    while index >= 0 and index + 3 < len(data):
        if data[index + 3] & 0x1F == 5:
            return True
        index = data.find(b"\x00\x00\x01", index + 3)
    return False


def counting_worker(loop, input_q, output_q, decode_error):
    """aiortc's decoder thread, with the frames counted; a viewer that does not decode only counts."""
    viewer = viewers_by_queue.get(id(output_q))
    if viewer is None:
        return _original_worker(loop, input_q, output_q, decode_error)
    viewers_by_thread[threading.get_ident()] = viewer
    if viewer.decode:
        return _original_worker(loop, CountingQueue(input_q, viewer), output_q, decode_error)
    while True:
        task = input_q.get()
        if task is None:
            return
        note_encoded(viewer, *task)


def note_encoded(viewer, codec, encoded_frame):
    if codec.mimeType.lower().startswith("video"):
        with viewer.lock:
            viewer.video_arrived()
            if is_keyframe(encoded_frame.data):
                viewer.key_frames.append(now())
            if not viewer.decode:
                viewer.video_frames += 1
    elif not viewer.decode:
        with viewer.lock:
            viewer.audio_frames += 1


class CountingQueue:
    """The decoder's input queue, noting keyframes on the way."""

    def __init__(self, queue, viewer):
        self.queue = queue
        self.viewer = viewer

    def get(self):
        task = self.queue.get()
        if task is not None:
            note_encoded(self.viewer, *task)
        return task


receiver_module.decoder_worker = counting_worker

_original_pli = RTCRtpReceiver._send_rtcp_pli
_original_nack = RTCRtpReceiver._send_rtcp_nack


own_plis = []


async def _counted_pli(self, media_ssrc):
    viewer = viewers_by_receiver.get(id(self))
    if viewer is not None:
        viewer.plis.append(now())
        own_plis.append(now())
    return await _original_pli(self, media_ssrc)


async def _counted_nack(self, media_ssrc, lost):
    viewer = viewers_by_receiver.get(id(self))
    if viewer is not None:
        viewer.nacks += 1
        viewer.media_ssrcs[id(self)] = media_ssrc
    return await _original_nack(self, media_ssrc, lost)


async def nack_again(receiver, viewer, every=0.1, give_up=1.0):
    """Asks again for packets still missing, every `every` s for up to `give_up` s each, as
    libwebrtc's receivers do (they retry after about a round trip). aiortc alone asks again only
    when a new gap appears, so a lost NACK or a lost retransmission stalls its jitter buffer until
    the next loss happens to come."""
    generator = getattr(receiver, "_RTCRtpReceiver__nack_generator", None)
    if generator is None:
        return
    first_missed = {}
    while True:
        await asyncio.sleep(every)
        missing, moment = set(generator.missing), now()
        first_missed = {seq: first_missed.get(seq, moment) for seq in missing}
        due = sorted(seq for seq, since in first_missed.items() if every <= moment - since <= give_up)
        ssrc = viewer.media_ssrcs.get(id(receiver))
        if due and ssrc is not None:
            viewer.nacks_repeated += 1
            await _original_nack(receiver, ssrc, due)


RTCRtpReceiver._send_rtcp_pli = _counted_pli
RTCRtpReceiver._send_rtcp_nack = _counted_nack


class DecodeErrors(logging.Handler):
    """aiortc's decode warnings, told apart by the decoder thread that logged them."""

    def __init__(self):
        super().__init__(logging.WARNING)

    def emit(self, record):
        if record.name.startswith("aiortc"):
            viewer = viewers_by_thread.get(record.thread)
            if viewer is not None:
                viewer.bad(record.getMessage())


async def run_viewer(viewer, args, start):
    await asyncio.sleep(max(0, start - now()))
    pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
    pc.addTransceiver("video", direction="recvonly")
    pc.addTransceiver("audio", direction="recvonly")
    tasks = []

    @pc.on("track")
    def on_track(track):
        viewers_by_queue[id(track._queue)] = viewer
        if not viewer.decode:
            return

        async def pull():
            while True:
                try:
                    frame = await track.recv()
                except Exception:
                    return
                if track.kind == "audio":
                    viewer.audio_frames += 1
                    continue
                viewer.video_frames += 1
                clean = not frame.is_corrupt
                with viewer.lock:
                    viewer.frame_times.append((now(), clean))
                    if not clean:
                        viewer.corrupt += 1
                        viewer.bad_times.append(now())
        tasks.append(asyncio.ensure_future(pull()))

    viewer.began = now()
    await pc.setLocalDescription(await pc.createOffer())
    loop = asyncio.get_running_loop()
    status, headers, body = await loop.run_in_executor(
        None, request, "POST", args.url, args.token, pc.localDescription.sdp.encode(), "application/sdp")
    viewer.result["status"] = status
    if status != 201:
        viewer.result["body"] = body.decode(errors="replace")[:300]
        await pc.close()
        return
    location = headers.get("Location") or headers.get("location")
    viewer.result["location"] = location
    await pc.setRemoteDescription(RTCSessionDescription(sdp=body.decode(), type="answer"))
    for transceiver in pc.getTransceivers():
        viewers_by_receiver[id(transceiver.receiver)] = viewer
        if transceiver.kind == "video":
            tasks.append(asyncio.ensure_future(nack_again(transceiver.receiver, viewer)))
    began = now()
    if args.pli_every and viewer.index == 0:
        video = next(t.receiver for t in pc.getTransceivers() if t.kind == "video")
        while now() - began + args.pli_every < args.seconds:
            await asyncio.sleep(args.pli_every)
            ssrcs = [s.source for s in video.getSynchronizationSources()]
            for _ in range(5 if ssrcs else 0):
                viewer.test_plis.append(now())
                await _original_pli(video, ssrcs[0])
                await asyncio.sleep(0.02)
    await asyncio.sleep(max(0, args.seconds - (now() - began)))
    if not args.no_delete and location:
        base = args.url.split("/whep")[0]
        delete_status, _, _ = await loop.run_in_executor(None, request, "DELETE", base + location, args.token)
        viewer.result["delete_status"] = delete_status
    viewer.result["ice"] = pc.iceConnectionState
    await pc.close()
    for task in tasks:
        task.cancel()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="the WHEP endpoint, http://127.0.0.1:PORT/whep")
    parser.add_argument("--token")
    parser.add_argument("--count", type=int, default=1, help="viewers")
    parser.add_argument("--decode", type=int, default=1, help="how many of them decode (the first ones)")
    parser.add_argument("--seconds", type=float, default=5, help="seconds each viewer receives")
    parser.add_argument("--stagger", type=float, default=0.1, help="seconds between viewers' offers")
    parser.add_argument("--pli-every", type=float, default=0, help="viewer 0 sends five PLIs every N seconds")
    parser.add_argument("--no-delete", action="store_true", help="vanish without DELETE")
    parser.add_argument("--ca-file", help="https:// endpoints: the CA that signed the server's certificate (else the system's)")
    args = parser.parse_args()
    if args.ca_file:
        context = ssl.create_default_context(cafile=args.ca_file)
        urllib.request.install_opener(urllib.request.build_opener(urllib.request.HTTPSHandler(context=context)))
    logging.getLogger().addHandler(DecodeErrors())
    viewers = [Viewer(i, i < args.decode) for i in range(args.count)]
    start = now()
    await asyncio.gather(*(run_viewer(v, args, start + i * args.stagger) for i, v in enumerate(viewers)))
    print(json.dumps({"viewers": [v.summary(args.seconds) for v in viewers]}))


if __name__ == "__main__":
    asyncio.run(main())
