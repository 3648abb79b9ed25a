#!/usr/bin/env python3
"""A WHEP viewer on aiortc (from PyPI), independent of OnAir's WebRTC code, for the serve tests.

POSTs an offer (video + audio, receive only) to a WHEP endpoint, applies the answer, receives and
decodes for --seconds, then DELETEs the session. Traffic stays on loopback: no ICE servers, and
host candidates only on 127.0.0.1 (aioice leaves loopback out unless told, see below).

With --out FILE it writes what it decoded to a NUT file (raw video, PCM) whose times are the
sender's clock after RTCP lip-sync mapping (each stream's RTP time through its latest sender
report's NTP/RTP pair), so `onair probe --sync FILE` measures A/V as the viewer would play it.
Prints one JSON object: the HTTP status, frames and audio frames decoded, decode errors logged,
sender reports seen, the picture size (the last, and `sizes`: each run of one size in order as
[width, height, frames], so a size change mid-session shows as two runs), and the status of the DELETE.
"""
import argparse
import asyncio
import json
import logging
import sys
import urllib.error
import urllib.parse
import urllib.request
from fractions import Fraction

import aioice.ice
from aiortc import RTCConfiguration, RTCPeerConnection, RTCSessionDescription
from aiortc.rtcrtpreceiver import RTCRtpReceiver
from aiortc.rtp import RtcpSrPacket

# aioice gathers host candidates on every address but loopback; keep it on loopback only.
aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: ["127.0.0.1"]

sender_reports = {"video": [], "audio": []}
_original_rtcp = RTCRtpReceiver._handle_rtcp_packet


async def _recording_rtcp(self, packet):
    if isinstance(packet, RtcpSrPacket):
        kind = self._RTCRtpReceiver__kind
        sender_reports.setdefault(kind, []).append((packet.sender_info.ntp_timestamp / 2**32, packet.sender_info.rtp_timestamp))
    return await _original_rtcp(self, packet)


RTCRtpReceiver._handle_rtcp_packet = _recording_rtcp


class ErrorCounter(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.count = 0
        self.messages = []

    def emit(self, record):
        if record.name.startswith("aiortc.codecs"):
            self.count += 1
            if len(self.messages) < 5:
                self.messages.append(record.getMessage())


def request(method, url, token, body=None, content_type=None):
    req = urllib.request.Request(url, data=body, method=method)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    if content_type:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req, timeout=15) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def wall_time(kind, timestamp, clock):
    reports = sender_reports.get(kind) or []
    if not reports:
        return None
    ntp, rtp = reports[-1]
    delta = (timestamp - rtp) & 0xFFFFFFFF
    if delta >= 2**31:
        delta -= 2**32
    return ntp + delta / clock


def write_nut(path, video, audio):
    import av
    times = [t for t, _ in video] + [t for t, _ in audio]
    start = min(times)
    container = av.open(path, "w", format="nut")
    vstream = astream = None
    if video:
        first = video[0][1]
        vstream = container.add_stream("rawvideo", rate=30)
        vstream.width, vstream.height, vstream.pix_fmt = first.width, first.height, "yuv420p"
        vstream.time_base = Fraction(1, 90000)
    if audio:
        astream = container.add_stream("pcm_s16le", rate=48000)
        astream.layout = "stereo"
        astream.time_base = Fraction(1, 48000)
    queue = sorted([(t, "v", f) for t, f in video] + [(t, "a", f) for t, f in audio], key=lambda x: x[0])
    last_video = -1
    for t, kind, frame in queue:
        if kind == "v":
            pts = round((t - start) * 90000)
            if pts <= last_video:
                continue
            last_video = pts
            frame.pts, frame.time_base = pts, Fraction(1, 90000)
            for packet in vstream.encode(frame):
                container.mux(packet)
        else:
            frame.pts, frame.time_base = round((t - start) * 48000), Fraction(1, 48000)
            for packet in astream.encode(frame):
                container.mux(packet)
    for stream in (vstream, astream):
        if stream:
            for packet in stream.encode(None):
                container.mux(packet)
    container.close()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="the WHEP endpoint, http://127.0.0.1:PORT/whep")
    parser.add_argument("--token")
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--out", help="write the decoded media, lip-sync mapped, to this NUT file")
    parser.add_argument("--no-delete", action="store_true", help="vanish without DELETE")
    args = parser.parse_args()
    errors = ErrorCounter()
    logging.getLogger().addHandler(errors)

    pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
    pc.addTransceiver("video", direction="recvonly")
    pc.addTransceiver("audio", direction="recvonly")
    received = {"video": [], "audio": []}
    counts = {"video": 0, "audio": 0}
    size = None
    sizes = []
    tasks = []

    @pc.on("track")
    def on_track(track):
        async def pull():
            nonlocal size
            while True:
                try:
                    frame = await track.recv()
                except Exception:
                    return
                counts[track.kind] += 1
                if track.kind == "video":
                    size = (frame.width, frame.height)
                    if sizes and sizes[-1][:2] == [frame.width, frame.height]:
                        sizes[-1][2] += 1
                    else:
                        sizes.append([frame.width, frame.height, 1])
                if args.out:
                    if track.kind == "video":
                        received["video"].append((frame.pts, frame.reformat(format="yuv420p")))
                    else:
                        received["audio"].append((frame.pts, frame))
        tasks.append(asyncio.ensure_future(pull()))

    await pc.setLocalDescription(await pc.createOffer())
    loop = asyncio.get_running_loop()
    status, headers, body = await loop.run_in_executor(
        None, request, "POST", args.url, args.token, pc.localDescription.sdp.encode(), "application/sdp")
    result = {"status": status}
    if status != 201:
        result["body"] = body.decode(errors="replace")
        print(json.dumps(result))
        await pc.close()
        return
    location = headers.get("Location") or headers.get("location")
    result["location"] = location
    await pc.setRemoteDescription(RTCSessionDescription(sdp=body.decode(), type="answer"))
    await asyncio.sleep(args.seconds)
    if not args.no_delete and location:
        # The Location resolved against the endpoint's URL (RFC 3986), as a browser would.
        session = urllib.parse.urljoin(args.url, location)
        delete_status, _, _ = await loop.run_in_executor(None, request, "DELETE", session, args.token)
        result["delete_status"] = delete_status
    result.update({"video_frames": counts["video"], "audio_frames": counts["audio"], "decode_errors": errors.count,
                   "decode_messages": errors.messages, "sender_reports": {k: len(v) for k, v in sender_reports.items()},
                   "size": size, "sizes": sizes, "ice": pc.iceConnectionState,
                   "sender_report_rtp": {k: [rtp for _, rtp in v] for k, v in sender_reports.items()}})
    transceivers = pc.getTransceivers()
    await pc.close()
    for task in tasks:
        task.cancel()
    if args.out:
        # aiortc stamps frames with the RTP time less the first one received (its TimestampMapper's origin).
        origins = {t.kind: t.receiver._RTCRtpReceiver__timestamp_mapper._origin or 0 for t in transceivers}
        video = [(wall_time("video", ts + origins.get("video", 0), 90000), f) for ts, f in received["video"]]
        audio = [(wall_time("audio", ts + origins.get("audio", 0), 48000), f) for ts, f in received["audio"]]
        video = [(t, f) for t, f in video if t is not None]
        audio = [(t, f) for t, f in audio if t is not None]
        if video or audio:
            write_nut(args.out, video, audio)
        result["written"] = {"video": len(video), "audio": len(audio)}
    print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main())
