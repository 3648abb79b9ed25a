#!/usr/bin/env python3
"""A small WHIP server (RFC 9725) on aiortc (from PyPI), independent of OnAir's WebRTC code, for the
`onair stream whip+http://…` tests.

POST /whip with an SDP offer (application/sdp) → 201 Created, the SDP answer and a Location
(/whip/session/ID); DELETE on the Location ends the session (200); a wrong or missing Bearer token
(--token) is refused with 401 / 403. Traffic stays on loopback: no ICE servers, host candidates only on
127.0.0.1 (the aioice patch in whep_client.py, which this imports).

Prints JSON lines on stdout: {"event": "listening", "port": N} once bound (--port 0: the kernel picks),
then one line per request ("session", "refused", "deleted"). On SIGTERM or after --seconds it prints one
"summary" line per session: video and audio frames decoded, decode errors, whether the first H.264 frame
received held an IDR, the picture size, whether the session was DELETEd; with --out DIR each session's
decoded media is written to DIR/session-N.nut with times mapped through the sender reports (lip sync as
a player would see it; `onair probe --sync` measures it). With --pli-after S it sends a PLI S seconds after
a session's first frame and its summary says how long the next IDR took to arrive.
"""
import argparse
import asyncio
import json
import logging
import os
import secrets
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import whep_client  # noqa: E402  (aioice on loopback, sender reports recorded, write_nut, wall_time)
from aiortc import RTCConfiguration, RTCPeerConnection, RTCSessionDescription  # noqa: E402
from aiortc.codecs.h264 import H264Decoder  # noqa: E402

MAX_BODY = 64 * 1024

# aiortc's DTLS offers ECDSA cipher suites only, as it comes: a publisher whose certificate is RSA
# (webrtcbin's default) cannot finish the handshake with this server. OnAir's peers present ECDSA.

# The first encoded H.264 frame each decoder gets: does it hold an IDR (NAL type 5)? And when each
# decoder got its IDRs (time.monotonic()), to see a keyframe answer a PLI.
first_frames = []
idr_times = []
_original_decode = H264Decoder.decode


def _nal_types(data):
    types, index = [], 0
    while True:
        index = data.find(b"\x00\x00\x01", index)
        if index < 0 or index + 3 >= len(data):
            return types
        types.append(data[index + 3] & 0x1F)
        index += 3


def _recording_decode(self, encoded_frame):
    is_idr = 5 in _nal_types(bytes(encoded_frame.data))
    if not getattr(self, "_onair_seen", False):
        self._onair_seen = True
        self._onair_index = len(first_frames)
        first_frames.append(is_idr)
        idr_times.append([])
    if is_idr:
        idr_times[self._onair_index].append(time.monotonic())
    return _original_decode(self, encoded_frame)


H264Decoder.decode = _recording_decode


def emit(**fields):
    print(json.dumps(fields), flush=True)


class Session:
    def __init__(self, number, pc):
        self.number = number
        self.id = secrets.token_hex(16)
        self.pc = pc
        self.counts = {"video": 0, "audio": 0}
        self.received = {"video": [], "audio": []}
        self.size = None
        self.deleted = False
        self.tasks = []
        self.pli_time = None


class Server:
    def __init__(self, args):
        self.args = args
        self.sessions = {}
        self.ordered = []
        self.errors = whep_client.ErrorCounter()
        logging.getLogger().addHandler(self.errors)

    async def handle(self, reader, writer):
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            lines = head.decode("latin-1").split("\r\n")
            method, path, _ = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                if ":" in line:
                    name, value = line.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length", "0"))
            if length > MAX_BODY:
                return await self.reply(writer, 413, "Payload Too Large")
            body = await asyncio.wait_for(reader.readexactly(length), 10) if length else b""
            status = self.authorize(headers)
            if status:
                emit(event="refused", status=status, method=method)
                return await self.reply(writer, status, "Unauthorized" if status == 401 else "Forbidden", b"token not accepted\n")
            if method == "POST" and path == "/whip":
                await self.publish(writer, headers, body)
            elif method == "DELETE" and path.startswith("/whip/session/"):
                session = self.sessions.get(path.rsplit("/", 1)[-1])
                if not session:
                    return await self.reply(writer, 404, "Not Found")
                session.deleted = True
                emit(event="deleted", id=session.id)
                await self.reply(writer, 200, "OK")
                await session.pc.close()
            else:
                await self.reply(writer, 405, "Method Not Allowed")
        except (asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError, ConnectionError):
            pass
        finally:
            writer.close()

    def authorize(self, headers):
        if not self.args.token:
            return 0
        given = headers.get("authorization", "")
        if not given.startswith("Bearer "):
            return 401
        return 0 if given[len("Bearer "):] == self.args.token else 403

    async def reply(self, writer, status, reason, body=b"", extra=()):
        lines = [f"HTTP/1.1 {status} {reason}", f"Content-Length: {len(body)}", "Connection: close", *extra]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await writer.drain()

    async def publish(self, writer, headers, body):
        if headers.get("content-type", "").split(";")[0].strip() != "application/sdp":
            return await self.reply(writer, 415, "Unsupported Media Type")
        pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
        session = Session(len(self.ordered), pc)

        @pc.on("track")
        def on_track(track):
            async def pull():
                while True:
                    try:
                        frame = await track.recv()
                    except Exception:
                        return
                    session.counts[track.kind] += 1
                    if track.kind == "video":
                        session.size = (frame.width, frame.height)
                        if session.counts["video"] == 1 and self.args.pli_after:
                            session.tasks.append(asyncio.ensure_future(self.send_pli(session)))
                    if self.args.out:
                        if track.kind == "video":
                            session.received["video"].append((frame.pts, frame.reformat(format="yuv420p")))
                        else:
                            session.received["audio"].append((frame.pts, frame))
            session.tasks.append(asyncio.ensure_future(pull()))

        try:
            await pc.setRemoteDescription(RTCSessionDescription(sdp=body.decode(), type="offer"))
            await pc.setLocalDescription(await pc.createAnswer())
        except Exception as error:
            await pc.close()
            emit(event="refused", status=400, reason=str(error))
            return await self.reply(writer, 400, "Bad Request", str(error).encode())
        self.sessions[session.id] = session
        self.ordered.append(session)
        emit(event="session", id=session.id, number=session.number, status=201)
        await self.reply(
            writer, 201, "Created", pc.localDescription.sdp.encode(),
            ["Content-Type: application/sdp", f"Location: /whip/session/{session.id}"])

    async def send_pli(self, session):
        """--pli-after: a picture loss indication for the video stream, as a receiver that lost a picture sends."""
        await asyncio.sleep(self.args.pli_after)
        for transceiver in session.pc.getTransceivers():
            if transceiver.kind != "video":
                continue
            receiver = transceiver.receiver
            for ssrc in list(getattr(receiver, "_RTCRtpReceiver__remote_streams", {}).keys()):
                session.pli_time = time.monotonic()
                await receiver._send_rtcp_pli(ssrc)
                emit(event="pli", id=session.id, ssrc=ssrc)

    async def finish(self):
        for session in self.ordered:
            transceivers = session.pc.getTransceivers()
            summary = {
                "event": "summary", "number": session.number, "id": session.id, "video_frames": session.counts["video"],
                "audio_frames": session.counts["audio"], "size": session.size, "deleted": session.deleted,
                "decode_errors": self.errors.count, "decode_messages": self.errors.messages,
                "first_frame_idr": first_frames[session.number] if session.number < len(first_frames) else None,
                "sender_reports": {k: len(v) for k, v in whep_client.sender_reports.items()},
            }
            if session.pli_time is not None and session.number < len(idr_times):
                later = [t - session.pli_time for t in idr_times[session.number] if t >= session.pli_time]
                summary["idr_after_pli_seconds"] = later[0] if later else None
            if self.args.out and (session.received["video"] or session.received["audio"]):
                origins = {}
                for t in transceivers:
                    mapper = getattr(t.receiver, "_RTCRtpReceiver__timestamp_mapper", None)
                    origins[t.kind] = (mapper._origin if mapper else 0) or 0
                video = [(whep_client.wall_time("video", ts + origins.get("video", 0), 90000), f) for ts, f in session.received["video"]]
                audio = [(whep_client.wall_time("audio", ts + origins.get("audio", 0), 48000), f) for ts, f in session.received["audio"]]
                video = [(t, f) for t, f in video if t is not None]
                audio = [(t, f) for t, f in audio if t is not None]
                path = os.path.join(self.args.out, f"session-{session.number}.nut")
                if video or audio:
                    whep_client.write_nut(path, video, audio)
                summary["written"] = {"video": len(video), "audio": len(audio), "path": path}
            print(json.dumps(summary), flush=True)
        for session in self.ordered:
            await session.pc.close()
            for task in session.tasks:
                task.cancel()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (0: the kernel picks)")
    parser.add_argument("--token", help="the Bearer token to require")
    parser.add_argument("--seconds", type=float, default=60, help="stop after this long")
    parser.add_argument("--out", help="directory for each session's decoded media (session-N.nut)")
    parser.add_argument("--pli-after", type=float, help="send a PLI this many seconds after a session's first frame")
    args = parser.parse_args()
    server = Server(args)
    listener = await asyncio.start_server(server.handle, "127.0.0.1", args.port)
    emit(event="listening", port=listener.sockets[0].getsockname()[1])
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # A parent may hand down SIGTERM blocked (the mask survives exec); the summary needs it delivered.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    try:
        await asyncio.wait_for(stop.wait(), args.seconds)
    except asyncio.TimeoutError:
        pass
    listener.close()
    await server.finish()


if __name__ == "__main__":
    asyncio.run(main())
