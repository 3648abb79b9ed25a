#!/usr/bin/env python3
"""A stand-in for `onair serve` while developing and testing the browser preview page.

Serves on 127.0.0.1:PORT
  GET /            the page (from --page FILE, or assembled from the Swift sources of PreviewPage)
  GET /live.mp4    a live fragmented MP4 (init segment, then one fragment per frame; H.264 without
                   B-frames + AAC), made by one ffmpeg per viewer from lavfi test sources, or with
                   --source onair, remuxed from `onair record --video synthetic` (frame codes with
                   the wall-clock time) through a FIFO
  GET /stats.json  figures shaped like serve's: encoder figures and one entry per viewer
With --token T every request needs ?token=T (403 otherwise). Standard library only. Children die
with the server (PR_SET_PDEATHSIG), so killing it stops every stream at once.
"""
import argparse
import ctypes
import glob
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PAGE_SWIFT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "OnAir", "Serve", "Preview")


def page_from_swift(directory):
    """The page assembled from the raw string literals of PreviewPage's Swift files (as `html` does)."""
    parts = {}
    for path in glob.glob(os.path.join(directory, "*.swift")):
        with open(path, encoding="utf-8") as handle:
            for match in re.finditer(r'static let (\w+) = ##"""\n(.*?)\n"""##', handle.read(), re.S):
                parts[match.group(1)] = match.group(2)
    return (parts["head"] + "<style>\n" + parts["style"] + "</style>\n</head>\n" + parts["body"]
            + "<script>\n'use strict';\n" + parts["mp4Script"] + parts["playerScript"] + parts["frameCodeScript"]
            + parts["plotsScript"] + parts["mainScript"] + "</script>\n</body>\n</html>\n")


def die_with_parent():
    """Makes the child get SIGKILL when this server dies (Linux)."""
    try:
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


FRAGMENTED = ["-f", "mp4", "-movflags", "empty_moov+default_base_moof+frag_every_frame", "pipe:1"]


class Viewer:
    """One /live.mp4 response: its ffmpeg (and onair) processes and byte count."""

    def __init__(self, args, address):
        self.address = address
        self.bytes = 0
        self.started = time.time()
        self.processes = []
        self.directory = None
        width, height = args.size.split("x")
        if args.source == "lavfi":
            command = ["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-re",
                       "-f", "lavfi", "-i", "testsrc2=size=%s:rate=%d" % (args.size, args.fps),
                       "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                       "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-bf", "0",
                       "-g", str(args.fps), "-b:v", args.bitrate, "-pix_fmt", "yuv420p",
                       "-c:a", "aac", "-b:a", "96k"] + FRAGMENTED
        else:
            self.directory = tempfile.mkdtemp(prefix="preview-standin-")
            fifo = os.path.join(self.directory, "live.ts")
            os.mkfifo(fifo)
            self.processes.append(subprocess.Popen(
                [args.onair, "record", "--video", "synthetic", "--size", args.size, "--fps", str(args.fps),
                 "--preset", "ultrafast", "--keyint", str(args.fps), "--bitrate", args.bitrate,
                 "--duration", "36000", "-o", fifo],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                preexec_fn=die_with_parent))
            command = ["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error",
                       "-fflags", "nobuffer", "-probesize", "65536", "-analyzeduration", "300000",
                       "-i", fifo, "-c", "copy"] + FRAGMENTED
        self.ffmpeg = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=sys.stderr, preexec_fn=die_with_parent)
        self.processes.append(self.ffmpeg)

    def close(self):
        for process in self.processes:
            if process.poll() is None:
                process.kill()
            process.wait()
        if self.directory:
            for name in os.listdir(self.directory):
                os.unlink(os.path.join(self.directory, name))
            os.rmdir(self.directory)


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
        if self.args.page:
            with open(self.args.page, encoding="utf-8") as handle:
                return handle.read()
        return page_from_swift(PAGE_SWIFT)

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
    parser.add_argument("--page", help="serve this file as the page instead of assembling it")
    parser.add_argument("--source", choices=["lavfi", "onair"], default="lavfi")
    parser.add_argument("--onair", default="onair", help="the onair executable for --source onair")
    parser.add_argument("--size", default="320x240")
    parser.add_argument("--fps", type=int, default=30)
    parser.add_argument("--bitrate", default="600k")
    parser.add_argument("--token")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    server = Server(args)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    print("listening %d" % args.port, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
