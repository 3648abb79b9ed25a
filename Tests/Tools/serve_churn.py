#!/usr/bin/env python3
"""Viewer churn against a running `onair serve`, on loopback only; stdlib + ffmpeg + srt-live-transmit.

  serve_churn.py --port P --srt-port S --pid PID --max-viewers N --seconds T --out DIR
                 [--warmup 60] [--burst-every 300] [--viewers 8-20] [--seed N] [--rss-percent 2]
                 [--kinds ts,mp4,hls,srt]

Keeps 8-20 viewers connected (more than --max-viewers at times, so some are refused) over
HTTP-TS (/live.ts), fMP4 (/live.mp4), HLS (/live.m3u8 and its segments) and SRT
(srt-live-transmit as caller). Each stays a random 1-60 s; a third leave abruptly (TCP reset:
SO_LINGER 0 then close; an SRT caller is killed); one in ten reads slowly. Every --burst-every
seconds, 2 x --max-viewers connect at once. Every viewer checks what it receives (TS sync bytes
every 188 bytes, MP4 box structure from ftyp on); every fifth keeps its bytes, cut to whole
units, and ffmpeg decodes them (-v error: any line is an error).

Phases: warm-up churn for --warmup s (with one burst halfway); quiet until no viewer is left, then the baseline sample;
churn until the end; drain (every viewer leaves its way), then the final sample with no viewer.
Every 10 s a sample of /proc/PID (open fds, threads, resident memory) and /stats.json goes to
DIR/samples.jsonl. Prints one JSON summary on stdout: counts, baseline, final, peaks and the
criteria that failed (the list `failures`, empty when all held). Every loop is bounded in count
and time: T s of churn (warm-up included), plus the quiet and the drain (each at most 2 minutes,
usually half a minute).
"""
import argparse
import json
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

MP4_BOXES = {b"ftyp", b"moov", b"moof", b"mdat", b"styp", b"sidx", b"free", b"skip", b"uuid", b"prft", b"emsg"}
MAX_CLIENTS = 128  # a bound on client threads alive at once, bursts included


class Counters:
    """Figures shared by every client thread, under one lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.values = {}
        self.errors = []

    def add(self, key, amount=1):
        with self.lock:
            self.values[key] = self.values.get(key, 0) + amount

    def error(self, text):
        with self.lock:
            self.values["errors"] = self.values.get("errors", 0) + 1
            if len(self.errors) < 20:
                self.errors.append(text)


class TSChecker:
    """MPEG-TS: a sync byte every 188 bytes from the first byte on; remembers where each packet
    with payload_unit_start_indicator begins (a PES starts there), to cut a copy to whole PES."""

    def __init__(self):
        self.carry = b""
        self.offset = 0
        self.packets = 0
        self.last_start = 0
        self.bad = None

    def feed(self, data):
        data = self.carry + data
        whole = len(data) - len(data) % 188
        syncs = data[0:whole:188]
        if syncs.count(0x47) != len(syncs):
            bad = next(index for index, byte in enumerate(syncs) if byte != 0x47)
            self.bad = "TS sync lost at byte %d" % (self.offset + bad * 188)
            return False
        flags = data[1:whole:188]
        for index in range(len(flags) - 1, -1, -1):
            if flags[index] & 0x40:
                self.last_start = self.offset + index * 188
                break
        self.packets += whole // 188
        self.offset += whole
        self.carry = data[whole:]
        return True

    def complete_length(self):
        """Bytes up to the last PES start: every PES before it is whole."""
        return self.last_start


class MP4Checker:
    """Fragmented MP4: whole top-level boxes from ftyp on, of known types and sane sizes; the
    end of the last complete mdat is where a copy can be cut."""

    def __init__(self):
        self.buffer = b""
        self.offset = 0
        self.boxes = 0
        self.fragments = 0
        self.complete = 0
        self.bad = None

    def feed(self, data):
        self.buffer += data
        while len(self.buffer) >= 8:
            size, kind = struct.unpack(">I4s", self.buffer[:8])
            header = 8
            if size == 1:
                if len(self.buffer) < 16:
                    break
                size = struct.unpack(">Q", self.buffer[8:16])[0]
                header = 16
            if kind not in MP4_BOXES or size < header or size > 64 << 20 or (self.boxes == 0 and kind != b"ftyp"):
                self.bad = "bad MP4 box %r of %d bytes at byte %d" % (kind, size, self.offset)
                return False
            if len(self.buffer) < size:
                break
            self.buffer = self.buffer[size:]
            self.offset += size
            self.boxes += 1
            if kind == b"moof":
                self.fragments += 1
            if kind in (b"mdat", b"moov"):
                self.complete = self.offset
        return True

    def complete_length(self):
        return self.complete


class Dechunker:
    """HTTP/1.1 chunked transfer coding, incrementally; `feed` returns the body bytes it completes."""

    def __init__(self):
        self.buffer = b""
        self.left = 0  # data bytes of the current chunk still to come
        self.crlf = False  # the CRLF after a chunk's data is next
        self.done = False

    def feed(self, data):
        self.buffer += data
        out = []
        while not self.done:
            if self.left:
                if not self.buffer:
                    break
                take = self.buffer[:self.left]
                self.buffer = self.buffer[len(take):]
                self.left -= len(take)
                out.append(take)
                self.crlf = self.left == 0
            elif self.crlf:
                if len(self.buffer) < 2:
                    break
                if self.buffer[:2] != b"\r\n":
                    raise ValueError("no CRLF after a chunk")
                self.buffer = self.buffer[2:]
                self.crlf = False
            else:
                line_end = self.buffer.find(b"\r\n")
                if line_end < 0:
                    if len(self.buffer) > 64:
                        raise ValueError("chunk size line too long")
                    break
                size = int(self.buffer[:line_end].split(b";")[0], 16)
                self.buffer = self.buffer[line_end + 2:]
                self.done = size == 0
                self.left = size
        return b"".join(out)


class Client(threading.Thread):
    """One viewer: a transport, how long it stays, how it leaves, whether it reads slowly and
    whether its bytes are decoded."""

    def __init__(self, run, kind, stay, abrupt, slow, sample):
        super().__init__(daemon=True)
        self.run_state, self.kind, self.stay = run, kind, stay
        self.abrupt, self.slow, self.sample = abrupt, slow, sample
        self.copy = bytearray() if sample else None

    def should_stop(self, start):
        return time.monotonic() - start >= self.stay or self.run_state.draining.is_set()

    def run(self):
        counters = self.run_state.counters
        counters.add("launched")
        counters.add("launched_" + self.kind)
        try:
            if self.kind == "srt":
                self.run_srt()
            elif self.kind == "hls":
                self.run_hls()
            else:
                self.run_http()
        except (OSError, ValueError) as error:
            counters.error("%s: %s" % (self.kind, error))
        finally:
            self.run_state.client_ended(self)

    def connect(self):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if self.slow:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(10)
        sock.connect(("127.0.0.1", self.run_state.port))
        return sock

    def leave(self, sock):
        if self.abrupt:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()

    @staticmethod
    def read_head(sock):
        """Reads the response head; returns (status, headers dict, body bytes already read)."""
        data = b""
        while b"\r\n\r\n" not in data:
            part = sock.recv(4096)
            if not part:
                return None, {}, b""
            data += part
            if len(data) > 16384:
                raise ValueError("response head too long")
        head, body = data.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        return status, headers, body

    def run_http(self):
        counters = self.run_state.counters
        path = "/live.ts" if self.kind == "ts" else "/live.mp4"
        checker = TSChecker() if self.kind == "ts" else MP4Checker()
        start = time.monotonic()
        sock = self.connect()
        try:
            sock.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: serve_churn\r\n\r\n" % path).encode())
            status, headers, body = self.read_head(sock)
            if status == 503:
                counters.add("refused")
                return
            if status != 200:
                counters.error("%s: status %s" % (path, status))
                return
            counters.add("served")
            chunked = headers.get("transfer-encoding", "").lower() == "chunked"
            dechunker = Dechunker() if chunked else None
            received = 0
            ended_by_server = False
            sock.settimeout(2)
            while not self.should_stop(start):
                if body:
                    payload = dechunker.feed(body) if dechunker else body
                    received += len(payload)
                    if not checker.feed(payload):
                        counters.error("%s: %s" % (path, checker.bad))
                        self.copy = None
                        break
                    if self.copy is not None:
                        self.copy += payload
                    if dechunker and dechunker.done:
                        ended_by_server = True
                        break
                try:
                    body = sock.recv(1024 if self.slow else 65536)
                except socket.timeout:
                    body = b""
                    continue
                except ConnectionResetError:
                    ended_by_server = True
                    break
                if not body:
                    ended_by_server = True
                    break
                if self.slow:
                    time.sleep(len(body) / 8000.0)  # 8 kB/s: a tenth of the stream or less
            counters.add("bytes", received)
            if ended_by_server:
                counters.add("ended_by_server")
            if self.copy is not None and not ended_by_server:
                self.run_state.decode(self.kind, bytes(self.copy[:checker.complete_length()]))
        finally:
            self.leave(sock)
            if self.abrupt:
                counters.add("left_abruptly")

    def get(self, path):
        """One HTTP/1.0 GET on its own connection: (status, body); resets it mid-body when abrupt
        and the viewer's time is up."""
        sock = self.connect()
        try:
            sock.sendall(("GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n" % path).encode())
            status, headers, body = self.read_head(sock)
            length = int(headers.get("content-length", "-1"))
            while length < 0 or len(body) < length:
                part = sock.recv(65536)
                if not part:
                    break
                body += part
                if self.slow:
                    time.sleep(len(part) / 8000.0)
            return status, body
        finally:
            sock.close()

    def run_hls(self):
        counters = self.run_state.counters
        start = time.monotonic()
        fetched = set()
        segments = 0
        served = False
        while not self.should_stop(start):
            status, playlist = self.get("/live.m3u8")
            if status != 200:
                time.sleep(1)
                continue
            if not served:
                counters.add("hls_served")
                served = True
            names = [line for line in playlist.decode("latin-1").split("\n") if line and not line.startswith("#")]
            for name in names:
                if name in fetched or self.should_stop(start):
                    continue
                if self.abrupt and time.monotonic() - start >= self.stay - 1:
                    # Leave in the middle of a segment: send the request, read a little, reset.
                    sock = self.connect()
                    sock.sendall(("GET /%s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n" % name).encode())
                    sock.recv(1024)
                    self.leave(sock)
                    counters.add("left_abruptly")
                    return
                fetched.add(name)
                status, body = self.get("/" + name)
                if status == 404:
                    continue  # slid out of the playlist meanwhile
                checker = TSChecker()
                if status != 200 or not body or not checker.feed(body) or len(body) % 188:
                    counters.error("HLS %s: status %s, %d bytes, %s" % (name, status, len(body), checker.bad))
                    return
                segments += 1
                counters.add("bytes", len(body))
                if self.copy is not None:
                    self.copy += body
            time.sleep(1)
        counters.add("hls_segments", segments)
        if self.copy:
            self.run_state.decode("hls", bytes(self.copy))

    def run_srt(self):
        counters = self.run_state.counters
        url = "srt://127.0.0.1:%d?mode=caller&latency=120" % self.run_state.srt_port
        process = subprocess.Popen(["srt-live-transmit", "-q", "-a:no", "-t:%d" % (int(self.stay) + 20), url, "file://con"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        start = time.monotonic()
        checker = TSChecker()
        received = 0
        reader_done = threading.Event()
        parts = []

        def read():
            # The pipe is read on its own thread so that the stay is kept even when nothing comes.
            try:
                while True:
                    part = process.stdout.read1(65536)
                    if not part:
                        break
                    with self.run_state.counters.lock:
                        parts.append(part)
            finally:
                reader_done.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        ended_by_server = False
        bad = False
        while not self.should_stop(start):
            ended_by_server = reader_done.wait(0.5)
            with self.run_state.counters.lock:
                taken, parts[:] = list(parts), []
            for part in taken:
                received += len(part)
                if not bad and not checker.feed(part):
                    counters.error("SRT: %s" % checker.bad)
                    bad = True
                    self.copy = None
                if self.copy is not None:
                    self.copy += part
            if ended_by_server:
                break
        if self.abrupt:
            process.kill()  # no SRT shutdown: the server learns it from the silence
            counters.add("left_abruptly")
        else:
            process.send_signal(signal.SIGINT)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        reader.join(5)
        process.stdout.close()
        counters.add("srt_served" if received else "srt_refused")
        counters.add("bytes", received)
        if ended_by_server and received and time.monotonic() - start < self.stay - 1:
            counters.add("ended_by_server")
        elif self.copy is not None and received:
            self.run_state.decode("srt", bytes(self.copy[:checker.complete_length()]))


class Run:
    """The whole churn: the launcher, the sampler and the decoder."""

    def __init__(self, options):
        self.options = options
        self.port, self.srt_port = options.port, options.srt_port
        self.counters = Counters()
        self.draining = threading.Event()
        self.lock = threading.Lock()
        self.alive = set()
        self.last_end = time.monotonic()
        self.random = random.Random(options.seed)
        self.samples = []
        self.decode_lock = threading.Lock()
        self.decoded = []
        self.started = time.monotonic()
        self.phase = "warm-up"
        self.launches = 0
        self.sample_file = open(os.path.join(options.out, "samples.jsonl"), "w")

    # Clients -------------------------------------------------------------------------------

    def client_ended(self, client):
        with self.lock:
            self.alive.discard(client)
            self.last_end = time.monotonic()

    def launch(self, kind=None, stay=None):
        rnd = self.random
        kinds = [k for k in ("ts", "mp4", "hls", "srt") if k in self.options.kinds]
        kind = kind or rnd.choices(kinds, weights=[{"ts": 35, "mp4": 25, "hls": 20, "srt": 20}[k] for k in kinds])[0]
        stay = stay if stay is not None else rnd.uniform(1, 60)
        slow = kind != "srt" and rnd.random() < 0.1
        self.launches += 1
        sample = not slow and self.launches % 5 == 1  # every fifth from the first: a sample in any run
        client = Client(self, kind, stay, abrupt=rnd.random() < 1 / 3, slow=slow, sample=sample)
        with self.lock:
            if len(self.alive) >= MAX_CLIENTS:
                return None
            self.alive.add(client)
        client.start()
        return client

    def alive_count(self):
        with self.lock:
            return len(self.alive)

    def churn(self, until):
        """Keeps the number of clients near a target redrawn every 20 s from --viewers."""
        low, high = self.options.viewers
        target, redraw = low, 0.0
        while time.monotonic() < until:
            now = time.monotonic()
            if now >= redraw:
                target, redraw = self.random.randint(low, high), now + 20
            if now >= self.next_burst:
                self.burst()
                self.next_burst = now + self.options.burst_every
            if self.alive_count() < target:
                self.launch()
            time.sleep(0.25)  # at most four arrivals a second

    def burst(self):
        """2 x --max-viewers viewers of the hub (TS, fMP4, SRT) connecting at once."""
        count = 2 * self.options.max_viewers
        self.counters.add("bursts")
        self.counters.add("burst_viewers", count)
        for index in range(count):
            kinds = [k for k in ("ts", "mp4", "srt") if k in self.options.kinds] or ["ts"]
            self.launch(kind=kinds[index % len(kinds)], stay=self.random.uniform(1, 10))

    def drain(self, limit):
        """Every client leaves its own way; waits until none is alive (bounded)."""
        self.draining.set()
        deadline = time.monotonic() + limit
        while self.alive_count() and time.monotonic() < deadline:
            time.sleep(0.2)
        self.draining.clear()
        return self.alive_count() == 0

    # Decoding ------------------------------------------------------------------------------

    def decode(self, kind, data):
        """ffmpeg decodes a copy (one at a time, niced); any line at -v error is an error."""
        if len(data) < 4096:
            return
        suffix = {"mp4": "mp4"}.get(kind, "ts")
        with self.decode_lock:
            index = len(self.decoded)
            path = os.path.join(self.options.out, "sample%03d-%s.%s" % (index, kind, suffix))
            with open(path, "wb") as handle:
                handle.write(data)
            result = subprocess.run(["nice", "-n", "5", "ffmpeg", "-hide_banner", "-nostdin", "-v", "error",
                                     "-i", path, "-enc_time_base", "-1", "-f", "null", "-"], capture_output=True, text=True, timeout=300)
            clean = result.returncode == 0 and not result.stderr.strip()
            self.decoded.append({"kind": kind, "bytes": len(data), "clean": clean,
                                 "errors": result.stderr.strip()[:400]})
            if clean:
                os.remove(path)  # kept only when it failed, for a look

    # Sampling ------------------------------------------------------------------------------

    def sample(self):
        pid = self.options.pid
        entry = {"t": round(time.monotonic() - self.started, 1), "phase": self.phase, "clients": self.alive_count()}
        try:
            entry["fds"] = len(os.listdir("/proc/%d/fd" % pid))
            with open("/proc/%d/status" % pid) as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        entry["rss_kb"] = int(line.split()[1])
                    elif line.startswith("RssAnon:"):
                        entry["rss_anon_kb"] = int(line.split()[1])
                    elif line.startswith("RssFile:"):
                        entry["rss_file_kb"] = int(line.split()[1])
                    elif line.startswith("Threads:"):
                        entry["threads"] = int(line.split()[1])
        except OSError as error:
            entry["error"] = "serve gone: %s" % error
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
                sock.sendall(b"GET /stats.json HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                data = b""
                while True:
                    part = sock.recv(65536)
                    if not part:
                        break
                    data += part
            totals = json.loads(data.split(b"\r\n\r\n", 1)[1])["totals"]
            entry["viewers"] = totals["viewers"]
            entry["peak_viewers"] = totals["peak_viewers"]
            entry["served"] = totals["served"]
            entry["refused_full"] = totals["refused_full"]
            entry["cut_too_slow"] = totals["cut_too_slow"]
        except (OSError, ValueError, KeyError) as error:
            entry["stats_error"] = str(error)
        self.samples.append(entry)
        self.sample_file.write(json.dumps(entry) + "\n")
        self.sample_file.flush()
        return entry

    def sampler(self, stop):
        while not stop.wait(10 - (time.monotonic() - self.started) % 10):
            self.sample()

    def settled_sample(self, limit):
        """The next 10-s sample with no viewer, taken at least 10 s after the last client left."""
        deadline = time.monotonic() + limit
        count = len(self.samples)
        while time.monotonic() < deadline:
            time.sleep(0.5)
            if len(self.samples) > count:
                entry = self.samples[-1]
                count = len(self.samples)
                with self.lock:
                    quiet_for = time.monotonic() - self.last_end
                if entry.get("viewers") == 0 and not entry["clients"] and quiet_for >= 10 + 10:
                    self.keep_smaps(entry)
                    return entry
        return None

    def keep_smaps(self, entry):
        """The server's memory map at a settled sample (DIR/smaps-<phase>.txt), to see where resident
        memory went: glibc's arenas, thread stacks, pages of the libraries' code."""
        try:
            with open("/proc/%d/smaps" % self.options.pid) as source:
                text = source.read()
            with open(os.path.join(self.options.out, "smaps-%s.txt" % entry["phase"]), "w") as target:
                target.write(text)
        except OSError:
            pass  # the sample itself records a server that is gone

    # The run -------------------------------------------------------------------------------

    def main(self):
        options = self.options
        stop = threading.Event()
        sampler = threading.Thread(target=self.sampler, args=(stop,), daemon=True)
        sampler.start()
        # The warm-up has a burst too, so that the baseline comes after everything was done once.
        self.next_burst = self.started + options.warmup / 2
        self.churn(self.started + options.warmup)
        self.phase = "quiet"
        self.next_burst = float("inf")
        drained_warmup = self.drain(60)
        baseline = self.settled_sample(60)
        self.phase = "churn"
        # The churn gets the rest of --seconds, counted from the baseline (the quiet is extra).
        end = time.monotonic() + max(0.0, options.seconds - options.warmup)
        self.next_burst = time.monotonic() + min(options.burst_every, max(5.0, (end - time.monotonic()) / 3))
        self.churn(end)
        self.phase = "drain"
        drained = self.drain(90) and drained_warmup
        final = self.settled_sample(60)
        stop.set()
        sampler.join(15)
        self.sample_file.close()
        return self.summary(baseline, final, drained)

    def summary(self, baseline, final, drained):
        options = self.options
        counters = dict(self.counters.values)
        valid = [s for s in self.samples if "fds" in s]
        peak = max((s.get("peak_viewers", 0) for s in self.samples), default=0)
        failures = []
        if not drained:
            failures.append("clients still alive after the drain")
        if baseline is None or final is None:
            failures.append("no settled sample without viewers (baseline %s, final %s)" % (baseline, final))
        else:
            if final["fds"] > baseline["fds"]:
                failures.append("open fds %d at the end, %d at the baseline" % (final["fds"], baseline["fds"]))
            if final["threads"] > baseline["threads"]:
                failures.append("threads %d at the end, %d at the baseline" % (final["threads"], baseline["threads"]))
            if final["rss_kb"] > baseline["rss_kb"] * (1 + options.rss_percent / 100):
                failures.append("resident memory %d kB at the end, %d kB at the baseline (> %g %%)"
                                % (final["rss_kb"], baseline["rss_kb"], options.rss_percent))
        if peak > options.max_viewers or any(s.get("viewers", 0) > options.max_viewers for s in self.samples):
            failures.append("more than %d viewers at once (peak %d)" % (options.max_viewers, peak))
        if any("error" in s or "stats_error" in s for s in self.samples):
            failures.append("a sample failed: %s" % next(s for s in self.samples if "error" in s or "stats_error" in s))
        if counters.get("errors", 0):
            failures.append("%d viewers saw an error: %s" % (counters["errors"], self.counters.errors[:5]))
        dirty = [d for d in self.decoded if not d["clean"]]
        if dirty:
            failures.append("%d of %d decoded samples had errors: %s" % (len(dirty), len(self.decoded), dirty[:3]))
        if not self.decoded:
            failures.append("no viewer's bytes were decoded")
        if counters.get("served", 0) + counters.get("srt_served", 0) == 0:
            failures.append("no viewer was served")
        return {
            "seconds": round(time.monotonic() - self.started, 1),
            "counts": counters,
            "decoded": len(self.decoded),
            "decoded_by_kind": {k: sum(1 for d in self.decoded if d["kind"] == k) for k in ("ts", "mp4", "hls", "srt")},
            "decode_failures": dirty,
            "baseline": baseline,
            "final": final,
            "peak_viewers": peak,
            "max_sampled": {key: max((s.get(key, 0) for s in valid), default=0) for key in ("fds", "threads", "rss_kb", "rss_anon_kb", "rss_file_kb", "viewers")},
            "samples": len(self.samples),
            "viewer_errors": self.counters.errors,
            "failures": failures,
        }


def viewer_range(text):
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--srt-port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--max-viewers", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--warmup", type=float, default=60)
    parser.add_argument("--burst-every", type=float, default=300)
    parser.add_argument("--viewers", type=viewer_range, default=(8, 20))
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--kinds", default="ts,mp4,hls,srt", help="the transports used (comma-separated)")
    parser.add_argument("--rss-percent", type=float, default=2, help="resident memory allowed above the baseline at the end")
    options = parser.parse_args()
    os.makedirs(options.out, exist_ok=True)
    summary = Run(options).main()
    print(json.dumps(summary, indent=1), flush=True)
    sys.exit(1 if summary["failures"] else 0)


if __name__ == "__main__":
    main()
