#!/usr/bin/env python3
"""Adaptive bitrate under kernel traffic shaping, in network namespaces this script creates.

Two namespaces joined by a veth pair (MTU 1500): the sender's end of the pair is shaped with
`tc qdisc ... tbf` (the publisher's uplink; acknowledgements come back unshaped), and the rate
is changed mid-run with `tc qdisc change` following --profile. `onair stream` publishes from the
sender namespace to nginx-rtmp (rtmp) or to an SRT listener (srt) in the receiver namespace,
where `onair play --measure-latency` watches. Prints one JSON object with the figures:
time to the first step down, link use while constrained (bytes through the shaper / its rate),
time back to the configured rate after the link returns, receiver delay p95/max, freezes,
decode errors, reconnects. Needs root; the namespaces are deleted whatever happens.
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

NGINX_MODULE = "/usr/lib/nginx/modules/ngx_rtmp_module.so"


def run(*command, check=True):
    return subprocess.run(command, check=check, capture_output=True, text=True)


class Namespaces:
    """A sender and a receiver namespace joined by a shaped veth pair."""

    def __init__(self):
        tag = "%d%03d" % (os.getpid() % 100000, random.randrange(1000))
        self.sender, self.receiver = "onair-abr-%ss" % tag, "onair-abr-%sr" % tag
        self.sender_link, self.receiver_link = "oa%ss" % tag, "oa%sr" % tag
        subnet = random.randrange(1, 250)
        self.sender_ip, self.receiver_ip = "10.211.%d.1" % subnet, "10.211.%d.2" % subnet
        self.created = []

    def __enter__(self):
        try:
            for name in (self.sender, self.receiver):
                run("ip", "netns", "add", name)
                self.created.append(name)
                run("ip", "-n", name, "link", "set", "lo", "mtu", "1500", "up")
            run("ip", "link", "add", self.sender_link, "mtu", "1500", "netns", self.sender,
                "type", "veth", "peer", "name", self.receiver_link, "mtu", "1500", "netns", self.receiver)
            run("ip", "-n", self.sender, "addr", "add", self.sender_ip + "/30", "dev", self.sender_link)
            run("ip", "-n", self.receiver, "addr", "add", self.receiver_ip + "/30", "dev", self.receiver_link)
            run("ip", "-n", self.sender, "link", "set", self.sender_link, "up")
            run("ip", "-n", self.receiver, "link", "set", self.receiver_link, "up")
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        for name in self.created:
            run("ip", "netns", "delete", name, check=False)

    def shape(self, mbit, change=False):
        run("tc", "-n", self.sender, "qdisc", "change" if change else "add", "dev", self.sender_link, "root",
            "tbf", "rate", "%gmbit" % mbit, "burst", "32kbit", "latency", "400ms")

    def shaped_bytes(self):
        out = run("tc", "-s", "-n", self.sender, "qdisc", "show", "dev", self.sender_link).stdout
        words = out.split()
        return int(words[words.index("Sent") + 1]) if "Sent" in words else 0

    def spawn(self, namespace, command, **kwargs):
        return subprocess.Popen(["ip", "netns", "exec", namespace] + command, **kwargs)


class LineWatcher(threading.Thread):
    """Keeps a process's stderr lines with the time each arrived."""

    def __init__(self, stream, path):
        super().__init__(daemon=True)
        self.stream, self.lines, self.log = stream, [], open(path, "w")

    def run(self):
        for raw in iter(self.stream.readline, b""):
            text = raw.decode(errors="replace")
            for part in text.replace("\r", "\n").split("\n"):
                if part.strip():
                    self.lines.append((time.time(), part.strip()))
                    self.log.write("%.3f %s\n" % (time.time(), part.strip()))
                    self.log.flush()

    def first(self, predicate, after=0):
        return next((t for t, line in self.lines if t >= after and predicate(line)), None)


def parse_profile(text):
    phases = []
    for part in text.split(","):
        rate, seconds = part.split(":")
        phases.append((float(rate), float(seconds)))
    return phases


def stop(process, sig=signal.SIGINT, timeout=10):
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--onair", required=True)
    parser.add_argument("--protocol", choices=["rtmp", "srt"], required=True)
    parser.add_argument("--profile", default="50:10,1:15,50:15", help="Mbit/s:seconds,...")
    parser.add_argument("--bitrate", default="2500k")
    parser.add_argument("--min-bitrate", default="200k")
    parser.add_argument("--srt-latency", default="120000", help="microseconds")
    parser.add_argument("--srt-options", default="", help="more query parameters for the sender's SRT URL, e.g. maxbw=0&oheadbw=25")
    parser.add_argument("--size", default="640x360")
    parser.add_argument("--fps", default="30")
    parser.add_argument("--extra", default="", help="more onair stream arguments, space separated")
    parser.add_argument("--keep", help="directory for logs (default: a temporary one, removed)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        print(json.dumps({"skipped": "needs root for network namespaces"}))
        return 0
    phases = parse_profile(args.profile)
    total = sum(seconds for _, seconds in phases)
    configured = int(float(args.bitrate.rstrip("kKmM")) * (1000 if args.bitrate[-1] in "kK" else 1_000_000 if args.bitrate[-1] in "mM" else 1))
    work = args.keep or tempfile.mkdtemp(prefix="onair-abr-")
    os.makedirs(work, exist_ok=True)
    processes = []
    try:
        with Namespaces() as ns:
            ns.shape(phases[0][0])
            if args.protocol == "rtmp":
                conf = os.path.join(work, "nginx.conf")
                with open(conf, "w") as f:
                    f.write("load_module %s;\ndaemon off;\nmaster_process off;\npid %s/nginx.pid;\n"
                            "error_log %s/nginx-error.log info;\nevents { worker_connections 64; }\n"
                            "rtmp { server { listen 1935; chunk_size 4096; application live { live on; wait_key on; } } }\n"
                            % (NGINX_MODULE, work, work))
                nginx = ns.spawn(ns.receiver, ["nginx", "-p", work, "-c", conf],
                                 stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "nginx.log"), "w"))
                processes.append(nginx)
                time.sleep(1)
                play_url = "rtmp://127.0.0.1:1935/live/test"
                stream_url = "rtmp://%s:1935/live/test" % ns.receiver_ip
            else:
                play_url = "srt://0.0.0.0:9000?mode=listener&latency=%s" % args.srt_latency
                stream_url = "srt://%s:9000?latency=%s" % (ns.receiver_ip, args.srt_latency)
                if args.srt_options:
                    stream_url += "&" + args.srt_options
            play_stats = os.path.join(work, "play.jsonl")
            play = ns.spawn(ns.receiver, [args.onair, "play", "--measure-latency", "--json", "--timeout", "30",
                                          "--stats-json", play_stats, play_url],
                            stdout=open(os.path.join(work, "play.json"), "w"), stderr=open(os.path.join(work, "play.log"), "w"))
            processes.append(play)
            time.sleep(1.5 if args.protocol == "rtmp" else 1.0)
            stream_stats = os.path.join(work, "stream.jsonl")
            stream = ns.spawn(ns.sender, [args.onair, "stream", "--duration", str(int(total + 2)), "--size", args.size,
                                          "--fps", args.fps, "--bitrate", args.bitrate, "--min-bitrate", args.min_bitrate,
                                          "--stats-json", stream_stats] + args.extra.split() + [stream_url],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            processes.append(stream)
            watcher = LineWatcher(stream.stderr, os.path.join(work, "stream.log"))
            watcher.start()
            deadline = time.time() + 15
            while time.time() < deadline and watcher.first(lambda l: ": connected" in l) is None and stream.poll() is None:
                time.sleep(0.05)
            start = watcher.first(lambda l: ": connected" in l)
            if start is None:
                raise RuntimeError("stream did not connect: %s" % [l for _, l in watcher.lines][-5:])
            # Phase boundaries on the wall clock; shaper byte counts at each.
            boundaries, counts = [start], [ns.shaped_bytes()]
            for index, (rate, seconds) in enumerate(phases):
                if index > 0:
                    ns.shape(rate, change=True)
                    boundaries.append(time.time())
                    counts.append(ns.shaped_bytes())
                time.sleep(max(0, start + sum(s for _, s in phases[: index + 1]) - time.time()))
            boundaries.append(time.time())
            counts.append(ns.shaped_bytes())
            # The receiver stops first: a sender that leaves ends an SRT input with an error.
            stop(play)
            stream.wait(timeout=30)
            watcher.join(timeout=5)
            if args.protocol == "rtmp":
                stop(nginx, signal.SIGTERM)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()

    # The constrained phase: the slowest one after the first.
    constrained = min(range(1, len(phases)), key=lambda i: phases[i][0]) if len(phases) > 1 else 0
    c_start, c_end = boundaries[constrained], boundaries[constrained + 1]
    c_rate = phases[constrained][0] * 1_000_000
    link_use = (counts[constrained + 1] - counts[constrained]) * 8 / (c_rate * (c_end - c_start))

    # Target bitrate over time: the abr lines ("abr: A → B kb/s") on the wall clock.
    targets = [(start, configured)]
    for t, line in watcher.lines:
        if line.startswith("abr:") and "→" in line:
            try:
                targets.append((t, int(line.split("→")[1].split("kb/s")[0].strip()) * 1000))
            except ValueError:
                pass
    first_down = next((t - c_start for t, rate in targets if t >= c_start and rate < configured), None)
    back = None
    if constrained + 1 < len(phases):
        r_start = boundaries[constrained + 1]
        rate_then = [rate for t, rate in targets if t <= r_start][-1]
        if rate_then >= configured:
            back = 0.0
        else:
            back = next((t - r_start for t, rate in targets if t >= r_start and rate >= configured), None)

    stream_last = {}
    with open(stream_stats) as f:
        for line in f:
            if line.strip():
                stream_last = json.loads(line)
    report = {}
    try:
        with open(os.path.join(work, "play.json")) as f:
            report = json.load(f)
    except (OSError, ValueError):
        pass
    latency = report.get("latency_ms") or {}
    # The play's once-a-second statistics: its latest frame's latency, and running totals.
    delays, last_play = [], {}
    try:
        with open(play_stats) as f:
            for line in f:
                sample = json.loads(line)
                last_play = sample
                if sample.get("latency_ms") is not None:
                    delays.append(sample["latency_ms"])
    except (OSError, ValueError):
        pass
    if not report:
        report = {key: last_play.get(key) for key in ("freezes", "decode_errors", "damaged_packets", "frames")}
    if not latency and delays:
        ordered = sorted(delays)
        latency = {"p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], "max": ordered[-1]}
    result = {
        "protocol": args.protocol, "profile": args.profile, "bitrate": configured,
        "first_step_down_s": None if first_down is None else round(first_down, 2),
        "link_use_constrained": round(link_use, 3),
        "back_to_configured_s": None if back is None else round(back, 2),
        "receiver_delay_p95_ms": latency.get("p95"), "receiver_delay_max_ms": latency.get("max"),
        "receiver_delay_samples_max_ms": max(delays) if delays else None,
        "freezes": report.get("freezes"), "decode_errors": report.get("decode_errors"),
        "damaged_packets": report.get("damaged_packets"), "frames": report.get("frames"),
        "reconnects": stream_last.get("reconnects"), "backlog_skips": stream_last.get("backlog_skips"),
        "bitrate_changes": stream_last.get("bitrate_changes"), "stream_exit": stream.returncode,
        "abr_lines": [line for _, line in watcher.lines if line.startswith("abr:")][:40],
        "work": work if args.keep else None,
    }
    print(json.dumps(result))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
