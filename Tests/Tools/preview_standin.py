#!/usr/bin/env python3
"""A stand-in for `onair serve` that serves the browser preview page with ffmpeg's live stream, so the
page can be tested apart from onair (and with streams onair does not make: --video-codec).

Serves on 127.0.0.1:PORT (0: a free port) and says so as onair serve does: "serving http://127.0.0.1:PORT/".
  GET /            the page (--page FILE: PreviewPage.html() written out by the test)
  GET /live.mp4    a live fragmented MP4 (init segment, then one fragment per frame; H.264 without
                   B-frames + AAC, or --video-codec), made by one ffmpeg per viewer from lavfi sources
  GET /stats.json  figures shaped like serve's: encoder figures and one entry per viewer
With --token T every request needs ?token=T (403 otherwise). Standard library only. Children die
with the server (PR_SET_PDEATHSIG), so killing it stops every stream at once.
"""
import argparse
import ctypes
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def die_with_parent():
    """Makes the child get SIGKILL when this server dies (Linux)."""
    try:
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


FRAGMENTED = ["-f", "mp4", "-movflags", "empty_moov+default_base_moof+frag_every_frame", "pipe:1"]


class Viewer:
    """One /live.mp4 response: its ffmpeg and byte count."""

    def __init__(self, args, address):
        self.address = address
        self.bytes = 0
        self.started = time.time()
        command = ["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-re",
                   "-f", "lavfi", "-i", "testsrc2=size=%s:rate=%d" % (args.size, args.fps),
                   "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                   "-c:v", args.video_codec, "-bf", "0", "-g", str(args.fps), "-b:v", args.bitrate, "-pix_fmt", "yuv420p"]
        if args.video_codec == "libx264":
            command += ["-preset", "ultrafast", "-tune", "zerolatency"]
        command += ["-c:a", "aac", "-b:a", "96k"] + FRAGMENTED
        self.ffmpeg = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=sys.stderr, preexec_fn=die_with_parent)

    def close(self):
        if self.ffmpeg.poll() is None:
            self.ffmpeg.kill()
        self.ffmpeg.wait()


class Handler(BaseHTTPRequestHandler):
    server_version = "preview-standin"

    def log_message(self, format, *args):
        if self.server.args.verbose:
            sys.stderr.write("%s %s\n" % (self.address_string(), format % args))

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        args = self.server.args
        if args.token is not None and query.get("token", [None])[0] != args.token:
            return self.answer(403, "text/plain", b"token required\n")
        self.server.requests.append(url.path)
        if url.path == "/":
            return self.answer(200, "text/html; charset=utf-8", self.server.page().encode("utf-8"))
        if url.path == "/stats.json":
            return self.answer(200, "application/json", json.dumps(self.server.stats()).encode("utf-8"))
        if url.path == "/live.mp4":
            return self.live()
        return self.answer(404, "text/plain", b"not found\n")

    def answer(self, status, kind, body):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def live(self):
        viewer = Viewer(self.server.args, self.client_address[0])
        with self.server.lock:
            self.server.viewers.append(viewer)
        try:
            self.send_response(200)
            self.send_header("Content-Type", "video/mp4")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.flush()
            while True:
                chunk = viewer.ffmpeg.stdout.read1(65536)
                if not chunk:
                    break
                self.wfile.write(chunk)
                self.wfile.flush()
                viewer.bytes += len(chunk)
                self.server.sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            viewer.close()
            with self.server.lock:
                self.server.viewers.remove(viewer)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, args):
        super().__init__(("127.0.0.1", args.port), Handler)
        self.args = args
        self.lock = threading.Lock()
        self.viewers = []
        self.requests = []
        self.sent = 0
        self.started = time.time()
        self.rate = [time.time(), 0, 0]

    def page(self):
        with open(self.args.page, encoding="utf-8") as handle:
            return handle.read()

    def stats(self):
        now = time.time()
        then, sent_then, bitrate = self.rate
        if now - then >= 0.5:
            bitrate = int((self.sent - sent_then) * 8 / (now - then) / max(1, len(self.viewers)))
            self.rate = [now, self.sent, bitrate]
        with self.lock:
            viewers = [{"protocol": "http-mp4", "address": v.address, "bytes_sent": v.bytes,
                        "seconds": round(now - v.started, 1)} for v in self.viewers]
        return {"elapsed": round(now - self.started, 1),
                "encoder": {"fps_out": float(self.args.fps), "video_bitrate": bitrate, "audio_bitrate": 96000,
                            "encode_latency_ms": 4.0 + (int(now) % 5) * 0.5},
                "viewers": viewers}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--page", required=True, help="the page to serve (PreviewPage.html(), written by the test)")
    parser.add_argument("--size", default="320x240")
    parser.add_argument("--fps", type=int, default=30)
    parser.add_argument("--bitrate", default="600k")
    parser.add_argument("--video-codec", default="libx264", help="ffmpeg's encoder for --source lavfi (mpeg4: a codec browsers refuse)")
    parser.add_argument("--token")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    server = Server(args)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    # The ready line onair serve prints, with the port bound (the system's choice for --port 0).
    print("serving http://127.0.0.1:%d/" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
