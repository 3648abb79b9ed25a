#!/usr/bin/python3
"""Drives Debian's headless Chromium (chromedriver + python3-selenium) against the preview page and
prints one JSON object with what it measured.

It starts the server itself (--server-command, a JSON list; it must listen on the URL's port), so
it can stop it and start it again on the same port; without --server-command the server must be
running already (and --restart is refused). The command and the URL may name the port "{port}":
the first start puts 0 there and reads the port the server bound from its ready line ("serving
http(s)://HOST:PORT/…", as onair serve and the stand-in print it); every later start puts that
port there, so a restarted server comes back where the page looks:

  check  open the page; once it plays, measure frames decoded and dropped and currentTime over
         --measure seconds; take a screenshot and check by pixels that the video and the plots
         are there; with --sound, press "Sound on" and measure again; with --restart, stop the server, record what the page says, start the server
         again and measure until the page plays again by itself; with --quick-restart S, stop it
         with SIGINT, start it S seconds later whatever the page noticed, and time 30 new frames.
  status open the page and wait until it reports an error in words (e.g. a codec the browser
         cannot play); print what it says.
  fuzz   in the page, feed OnAirMP4 (the box splitter, the init segment reader and the track
         remover) with the stream's own init segment and fragments mutated and truncated
         --iterations times, and with the stream
         cut at random places; every failure must be a plain Error with a message (never a
         TypeError or RangeError from reading past the data), and splitting must not depend on
         where the chunks end.
  bench  open the page and collect --seconds of glass-to-glass latencies (frame codes), the time
         from opening the page to its first frame, and frames decoded and dropped (over whichever
         transport the page plays: WebRTC at /, MSE at /?via=mse).
  webrtc open the page (served with --webrtc) and, once it plays over WebRTC: frames presented
         (requestVideoFrameCallback), decoded and dropped over --measure seconds beside the frames
         the server encoded; the luma of the frame-code strip of --code-frames presented frames,
         captured by this script's own requestVideoFrameCallback and canvas, each with its display
         time (performance.timeOrigin + expectedDisplayTime), for the caller to decode
         independently, beside the page's own latency per frame index; then "Sound on" and the
         audio over --measure-after seconds: the receiver's getStats and a WebAudio analyser on
         the video's MediaStream (the 3 kHz band, where the synthetic source beeps every second).
  fallback open the page and wait until it plays over MSE; print when and why it fell back.

Runs with Debian's /usr/bin/python3 (where python3-selenium lives). Decodes the screenshot with
ffmpeg. Exit status 0 when it could measure (the JSON says what), 2 when it could not run.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError as error:  # reported as JSON so the caller can skip with the reason
    print(json.dumps({"ok": False, "unavailable": "python3-selenium: %s" % error}))
    sys.exit(2)

PLOT_COLORS = {"bitrate": (0x4c, 0x9a, 0xff), "fps": (0x4c, 0xc3, 0x8a), "encode": (0xf2, 0xb8, 0x4b),
               "viewers": (0xc3, 0x8a, 0xf2), "latency": (0xff, 0x7b, 0x72)}


def log(message):
    print("[preview_browser %.1f] %s" % (time.time() % 1000, message), file=sys.stderr, flush=True)


PORT = "{port}"
# The ready line of a server started on port 0: "serving http://127.0.0.1:PORT/…".
READY = re.compile(r"^serving https?://[^\s/]*:(\d+)/", re.M)


class ServerProcess:
    """The server under test, started in its own process group so it can be stopped entirely; with
    `port` None, the port is read from its ready line at the first start (see the module's text)."""

    def __init__(self, command, port, log_path):
        self.command = command
        self.port = port
        self.log_path = log_path
        self.process = None

    def start(self, timeout=30):
        if self.command is None:
            return
        output = open(self.log_path, "ab")
        offset = output.tell()
        command = [part.replace(PORT, str(self.port or 0)) for part in self.command]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=output, stderr=output,
                                        start_new_session=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("server exited with %s; log %s" % (self.process.returncode, self.log_path))
            if self.port is None:
                with open(self.log_path, "rb") as log_file:
                    log_file.seek(offset)
                    ready = READY.search(log_file.read().decode("utf-8", "replace"))
                if ready is None:
                    time.sleep(0.1)
                    continue
                self.port = int(ready.group(1))
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not listen on port %s within %d s" % (self.port, timeout))

    def stop(self, sig=signal.SIGTERM):
        if self.process is None or self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, sig)
            self.process.wait(timeout=8)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        except ProcessLookupError:
            pass


def open_browser(profile, width, height, network_log=False, spki=None):
    # WebRTC stays on loopback: Chromium gathers the loopback address as a host candidate, and
    # names its candidates by address rather than by mDNS host names.
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--autoplay-policy=no-user-gesture-required",
                 "--window-size=%d,%d" % (width, height), "--force-device-scale-factor=1",
                 "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                 "--disable-backgrounding-occluded-windows", "--no-first-run", "--no-default-browser-check",
                 "--allow-loopback-in-peer-connection", "--disable-features=WebRtcHideLocalIpsWithMdns",
                 "--user-data-dir=%s" % profile]:
        options.add_argument(flag)
    # --spki: trust the server's key (a test's own certificate) and no other certificate error.
    if spki:
        options.add_argument("--ignore-certificate-errors-spki-list=%s" % spki)
    # --network-log: Chromium's own record of every request (DevTools Network events).
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"} if network_log else {"browser": "ALL"})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_script_timeout(20)
    return driver


def requests_made(driver):
    """Every distinct (url, resource type) Chromium sent, from its DevTools Network log."""
    seen, made = set(), []
    for entry in driver.get_log("performance"):
        try:
            message = json.loads(entry["message"])["message"]
        except (KeyError, ValueError):
            continue
        if message.get("method") != "Network.requestWillBeSent":
            continue
        params = message.get("params", {})
        key = (params.get("request", {}).get("url", ""), params.get("type", ""))
        if key not in seen and len(made) < 500:
            seen.add(key)
            made.append({"url": key[0], "type": key[1]})
    return made


def snapshot(driver):
    return driver.execute_script("return window.onair ? window.onair.snapshot() : null;")


def wait_for(driver, predicate, timeout, interval=0.1):
    """Polls snapshots until predicate(snapshot) holds; returns (snapshot, seconds waited) or (last, None)."""
    start = time.time()
    last = None
    while time.time() - start < timeout:
        last = snapshot(driver)
        if last is not None and predicate(last):
            return last, time.time() - start
        time.sleep(interval)
    return last, None


def playing(s):
    return s["playing"] and s["totalVideoFrames"] > 0 and s["currentTime"] > 0


def frames_encoded(stats_url):
    """The server's encoded video frames so far and the session time they were counted at
    (frames_out and elapsed in /stats.json), or None."""
    if stats_url is None:
        return None
    try:
        with urllib.request.urlopen(stats_url, timeout=3) as reply:
            encoder = json.load(reply)["encoder"]
            return encoder["frames_out"], encoder["elapsed"]
    except Exception:
        return None


def encoded_in(first, last, seconds):
    """Frames the server encoded in `seconds` of wall-clock time, from two /stats.json readings
    (frames_encoded). The encoder's figures are counted once a second: two readings a window apart
    span one more or one fewer of those seconds than the window (120 or 150 frames in a 4 s window
    at 30 fps), so the count is taken at their own rate over the window's length."""
    if first is None or last is None:
        return None
    counted = last[1] - first[1]
    if counted <= 0:
        return None
    return round((last[0] - first[0]) * seconds / counted, 1)


def measure(driver, seconds, stats_url=None):
    """Frames decoded and dropped, and currentTime advance, over `seconds` of wall-clock time;
    with stats_url also the frames the server encoded meanwhile (stream_fps)."""
    first, encoded_first = snapshot(driver), frames_encoded(stats_url)
    began = time.time()
    time.sleep(seconds)
    last, encoded_last = snapshot(driver), frames_encoded(stats_url)
    elapsed = time.time() - began
    frames = last["totalVideoFrames"] - first["totalVideoFrames"]
    dropped = last["droppedVideoFrames"] - first["droppedVideoFrames"]
    figures = {"seconds": round(elapsed, 2), "frames": frames, "dropped": dropped,
               "fps": round(frames / elapsed, 2), "dropped_percent": round(100.0 * dropped / max(1, frames), 2),
               "current_time_advance": round(last["currentTime"] - first["currentTime"], 3),
               "live_skips": last["liveSkips"] - first["liveSkips"], "ahead": round(last["ahead"], 3),
               "connections": last["connections"]}
    encoded = encoded_in(encoded_first, encoded_last, elapsed)
    if encoded is not None:
        figures["stream_fps"] = round(encoded / elapsed, 2)
    return figures


def measure_best(driver, seconds, stats_url, tries, nominal_fps):
    """Up to `tries` windows of measure(), stopping at the first where the page decoded at least 90%
    of the stream's rate with under 5% dropped: on a machine shared with other work, a window in
    which the browser or the server got too little CPU is measured again. All windows are kept."""
    windows = []
    for _ in range(tries):
        window = measure(driver, seconds, stats_url)
        windows.append(window)
        rate = window.get("stream_fps") or nominal_fps
        if window["fps"] >= 0.9 * rate and window["dropped_percent"] < 5:
            break
    best = dict(windows[-1])
    best["windows"] = len(windows)
    best["all_windows"] = windows
    return best


def decode_png(path):
    """(width, height, rgb bytes) of a PNG, decoded by ffmpeg."""
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                            "-of", "json", path], capture_output=True, check=True)
    stream = json.loads(probe.stdout)["streams"][0]
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
                         capture_output=True, check=True).stdout
    return stream["width"], stream["height"], raw


def region_figures(image, rect, colors, step=2):
    """Pixel figures of rect (x, y, w, h) of the image: luma spread, share of non-black pixels and
    the count of pixels near each of `colors`."""
    width, height, raw = image
    x0, y0 = max(0, int(rect["x"])), max(0, int(rect["y"]))
    x1, y1 = min(width, int(rect["x"] + rect["width"])), min(height, int(rect["y"] + rect["height"]))
    count, total, total_sq, lit = 0, 0.0, 0.0, 0
    near = {name: 0 for name in colors}
    for y in range(y0, y1, step):
        row = y * width * 3
        for x in range(x0, x1, step):
            r, g, b = raw[row + 3 * x], raw[row + 3 * x + 1], raw[row + 3 * x + 2]
            luma = 0.299 * r + 0.587 * g + 0.114 * b
            count += 1
            total += luma
            total_sq += luma * luma
            if luma > 24:
                lit += 1
            for name, (cr, cg, cb) in colors.items():
                if abs(r - cr) + abs(g - cg) + abs(b - cb) < 60:
                    near[name] += 1
    mean = total / max(1, count)
    spread = max(0.0, total_sq / max(1, count) - mean * mean) ** 0.5
    return {"pixels": count, "luma_mean": round(mean, 1), "luma_spread": round(spread, 1),
            "lit_share": round(lit / max(1, count), 3), "near": near}


def screenshot_figures(driver, path):
    """Takes a screenshot and measures the video element and each plot canvas in it."""
    driver.save_screenshot(path)
    image = decode_png(path)
    rects = driver.execute_script("""
        const r = (id) => { const b = document.getElementById(id).getBoundingClientRect();
                            return { x: b.left, y: b.top, width: b.width, height: b.height }; };
        return { video: r('video'), bitrate: r('plot-bitrate'), fps: r('plot-fps'), encode: r('plot-encode'),
                 viewers: r('plot-viewers'), latency: r('plot-latency') };""")
    figures = {"width": image[0], "height": image[1], "video": region_figures(image, rects["video"], {})}
    for name, color in PLOT_COLORS.items():
        figures[name] = region_figures(image, rects[name], {name: color}, step=1)["near"][name]
    return figures


def stats_url(page_url):
    """/stats.json on the page's server, with the page's query (its token)."""
    page = urllib.parse.urlsplit(page_url)
    return urllib.parse.urlunsplit((page.scheme, page.netloc, "/stats.json", page.query, ""))


def check(args, driver, server):
    result = {}
    driver.get(args.url)
    state, waited = wait_for(driver, playing, args.timeout)
    result["first_play_seconds"] = waited
    result["first_state"] = state
    if waited is None:
        return result
    time.sleep(2.5)  # past the start-up burst (the joined GOP decoded at once)
    result["playback"] = measure_best(driver, args.measure, stats_url(args.url), args.tries, args.fps)
    result["snapshot"] = snapshot(driver)
    result["latency_ms"] = latency_figures(driver.execute_script("return window.onair.latencyLog.slice();"))
    result["screenshot"] = screenshot_figures(driver, args.screenshot)
    if args.sound:
        # "Sound on": the page reconnects with the audio track and plays again.
        before = snapshot(driver)
        driver.find_element("id", "sound").click()
        state, waited = wait_for(driver, lambda s: playing(s) and s["sound"] and s["connections"] > before["connections"]
                                 and "mp4a" in (s["mimeType"] or ""), 15)
        result["sound_on_seconds"] = waited
        result["sound_mime_type"] = state["mimeType"] if state else None
        if waited is not None:
            time.sleep(2.0)
            result["with_sound"] = measure_best(driver, args.measure_after, stats_url(args.url), args.tries, args.fps)
    if args.quick_restart is not None:
        return quick_restart(args, driver, server, result)
    if not args.restart:
        return result
    server.stop()
    stopped_at = time.time()
    state, waited = wait_for(driver, lambda s: not s["playing"] and s["level"] != "ok", 15)
    result["noticed_stop_seconds"] = waited
    result["stopped_status"] = state["status"] if state else None
    time.sleep(args.down)
    result["down_status"] = snapshot(driver)["status"]
    server.start()
    restarted_at = time.time()
    state, waited = wait_for(driver, lambda s: playing(s) and s["connections"] > result["snapshot"]["connections"], 30)
    result["resumed_seconds"] = waited
    result["server_down_seconds"] = round(restarted_at - stopped_at, 2)
    if waited is not None:
        time.sleep(2.0)  # past the decoding burst of the joined GOP
        result["after_restart"] = measure_best(driver, args.measure_after, stats_url(args.url), args.tries, args.fps)
        result["after_restart_snapshot"] = snapshot(driver)
    return result


def quick_restart(args, driver, server, result):
    """As a user restarts the server: Ctrl-C (SIGINT), started again --quick-restart seconds later
    whatever the page has noticed; the seconds from the server listening again to the page showing
    30 frames of a new connection ("thirty_frames_seconds")."""
    before = snapshot(driver)
    server.stop(signal.SIGINT)
    stopped_at = time.time()
    time.sleep(args.quick_restart)
    server.start()
    listening_at = time.time()
    result["server_down_seconds"] = round(listening_at - stopped_at, 2)
    first = None

    def thirty_new(s):
        nonlocal first
        if s["connections"] <= before["connections"]:
            return False
        if first is None:
            first = s["totalVideoFrames"]
        return s["playing"] and s["totalVideoFrames"] - first >= 30

    state, waited = wait_for(driver, thirty_new, 30, interval=0.05)
    result["thirty_frames_seconds"] = None if waited is None else round(time.time() - listening_at, 2)
    result["after_restart_snapshot"] = state
    return result


def latency_figures(samples):
    """p50, p95, min, max and count of glass-to-glass latencies in ms (None without samples)."""
    if not samples:
        return None
    samples = sorted(samples)
    pick = lambda q: round(samples[min(len(samples) - 1, int(q * len(samples)))], 1)
    return {"p50": pick(0.5), "p95": pick(0.95), "min": round(samples[0], 1), "max": round(samples[-1], 1),
            "count": len(samples)}


def status(args, driver):
    driver.get(args.url)
    state, waited = wait_for(driver, lambda s: s["level"] == "error", args.timeout)
    return {"error_seconds": waited, "status": state["status"] if state else None, "snapshot": state}


FUZZ_SCRIPT = """
const [url, iterations, finish] = arguments;
(async () => {
  const response = await fetch(url, { cache: 'no-store' });
  const reader = response.body.getReader();
  const whole = new OnAirMP4.BoxSplitter(), chunks = [], boxes = [];
  while (boxes.filter((box) => box.type === 'moof').length < 30) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    boxes.push(...whole.push(value));
  }
  reader.cancel();
  window.onair.player.fail(new PreviewProblem('info', 'fuzzing', 60000));
  let seed = 0x2545f491;
  const random = () => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) / 4294967296; };
  const failures = [];
  const expectError = (what, error) => {
    if (!(error instanceof Error) || error.constructor !== Error || !error.message) failures.push(what + ': ' + error.name + ': ' + error.message);
  };
  const moov = boxes.find((box) => box.type === 'moov').bytes;
  const original = OnAirMP4.describeInit(moov);
  const drop = new Set(original.tracks.filter((t) => t.kind !== 'video').map((t) => t.id));
  const moofs = boxes.filter((box) => box.type === 'moof').map((box) => box.bytes);
  let described = 0, refused = 0, rewritten = 0;
  for (let i = 0; i < iterations; i++) {
    const fragment = random() < 0.5;
    let bytes = (fragment ? moofs[Math.floor(random() * moofs.length)] : moov).slice();
    const flips = 1 + Math.floor(random() * 6);
    for (let f = 0; f < flips; f++) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
    if (random() < 0.25) bytes = bytes.subarray(0, Math.floor(random() * bytes.length));
    if (fragment || random() < 0.3) {
      try { fragment ? OnAirMP4.moofWithout(bytes, drop) : OnAirMP4.moovWithout(bytes, drop); rewritten++; }
      catch (error) { expectError(fragment ? 'moof' : 'moov rewrite', error); }
      if (fragment) continue;
    }
    try {
      const description = OnAirMP4.describeInit(bytes);
      if (!/^video\/mp4; codecs="[^"]*"$/.test(description.mimeType) || /undefined|NaN/.test(description.mimeType)) {
        failures.push('odd description: ' + description.mimeType);
      }
      described++;
    } catch (error) { expectError('init', error); refused++; }
  }
  let splits = 0, garbage = 0;
  const stream = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  chunks.reduce((offset, c) => { stream.set(c, offset); return offset + c.length; }, 0);
  const reference = boxes.map((box) => box.type + box.bytes.length).join(',');
  for (let i = 0; i < 200; i++) {
    const splitter = new OnAirMP4.BoxSplitter(), got = [];
    for (let offset = 0; offset < stream.length;) {
      const size = 1 + Math.floor(random() * (random() < 0.5 ? 64 : 65536));
      got.push(...splitter.push(stream.subarray(offset, offset + size)));
      offset += size;
    }
    if (got.map((box) => box.type + box.bytes.length).join(',') !== reference) failures.push('split ' + i + ' differs');
    splits++;
  }
  for (let i = 0; i < 2000; i++) {
    const bytes = new Uint8Array(1 + Math.floor(random() * 64));
    for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(random() * 256);
    try { new OnAirMP4.BoxSplitter().push(bytes); garbage++; } catch (error) { expectError('garbage', error); garbage++; }
  }
  finish({ codecs: original.codecs, boxes: boxes.length, described, refused, rewritten, splits, garbage,
           failureCount: failures.length, failures: failures.slice(0, 10) });
})().catch((error) => finish({ error: String(error && error.stack || error) }));
"""


def fuzz(args, driver):
    driver.get(args.url)
    wait_for(driver, lambda s: s["bytes"] > 0, args.timeout)
    live = urllib.parse.urlsplit(args.url)
    url = urllib.parse.urlunsplit((live.scheme, live.netloc, "/live.mp4", live.query, ""))
    driver.set_script_timeout(120)
    return {"fuzz": driver.execute_async_script(FUZZ_SCRIPT, url, args.iterations)}


def bench(args, driver):
    result = {}
    driver.get(args.url)
    state, waited = wait_for(driver, lambda s: s["firstFrameMs"] is not None, args.timeout, interval=0.05)
    result["first_frame_ms"] = state["firstFrameMs"] if waited is not None else None
    result["first_state"] = state
    if waited is None:
        return result
    result["transport"] = state["transport"]
    result["fallback_reason"] = state["fallbackReason"]
    wait_for(driver, lambda s: s["latencyCount"] > 0, 10)
    time.sleep(args.warmup)
    start = driver.execute_script("return window.onair.latencyLog.length;")
    result["playback"] = measure(driver, args.seconds, stats_url(args.url))
    result["latency_ms"] = latency_figures(driver.execute_script("return window.onair.latencyLog.slice(arguments[0]);", start))
    result["snapshot"] = snapshot(driver)
    return result


# The test's own reading of presented frames: its own requestVideoFrameCallback on the page's
# <video>, its own canvas, the luma (BT.601 weights, full range) of the top `rows` rows of each
# presented frame, and its display time on the wall clock taken as performance.timeOrigin +
# expectedDisplayTime (the page takes Date.now() + expectedDisplayTime - performance.now()).
CODE_FRAMES_SCRIPT = """
const [count, rows, finish] = arguments;
const video = document.getElementById('video');
const canvas = document.createElement('canvas');
const context = canvas.getContext('2d', { willReadFrequently: true });
const frames = [];
const toBase64 = (bytes) => { let text = ''; for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192)); return btoa(text); };
function onFrame(now, metadata) {
  const width = video.videoWidth, height = Math.min(video.videoHeight, rows);
  if (width > 0 && height > 0) {
    if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; }
    context.drawImage(video, 0, 0, width, height, 0, 0, width, height);
    const rgba = context.getImageData(0, 0, width, height).data;
    const luma = new Uint8Array(width * height);
    for (let i = 0, p = 0; i < luma.length; i++, p += 4) luma[i] = Math.round(0.299 * rgba[p] + 0.587 * rgba[p + 1] + 0.114 * rgba[p + 2]);
    frames.push({ displayWallMs: performance.timeOrigin + metadata.expectedDisplayTime, width: video.videoWidth,
                  height: video.videoHeight, rows: height, presentedFrames: metadata.presentedFrames, luma: toBase64(luma) });
  }
  if (frames.length < count) video.requestVideoFrameCallback(onFrame);
  else finish(frames);
}
video.requestVideoFrameCallback(onFrame);
setTimeout(() => finish(frames), 20000);
"""

# A WebAudio analyser on the video's MediaStream, sampled every 10 ms for `seconds`: the level in
# dB of the 3 kHz band (the synthetic beep) and of the 440 Hz band (its quiet tone).
AUDIO_SCRIPT = """
const [seconds, finish] = arguments;
const video = document.getElementById('video');
const stream = video.srcObject;
if (!stream || stream.getAudioTracks().length === 0) { finish({ error: 'no audio track in the video element' }); return; }
const context = new AudioContext();
const source = context.createMediaStreamSource(stream);
const analyser = context.createAnalyser();
analyser.fftSize = 2048;
analyser.smoothingTimeConstant = 0;
source.connect(analyser);
const bins = new Float32Array(analyser.frequencyBinCount);
const binOf = (hz) => Math.round(hz / (context.sampleRate / analyser.fftSize));
const band = (hz) => { const b = binOf(hz); return Math.max(bins[b - 1], bins[b], bins[b + 1]); };
const samples = [];
const started = performance.now();
context.resume().then(() => {
  const timer = setInterval(() => {
    analyser.getFloatFrequencyData(bins);
    samples.push([Math.round(performance.now() - started), band(3000), band(440)]);
    if (performance.now() - started > seconds * 1000) {
      clearInterval(timer);
      finish({ state: context.state, sampleRate: context.sampleRate, samples });
      context.close();
    }
  }, 10);
}, (error) => finish({ error: String(error) }));
"""


def beeps(samples):
    """Beep onsets in the analyser's samples: the 3 kHz band rising above the midpoint between its
    quiet level (median) and its loudest, at least 20 dB over the quiet level."""
    samples = [s for s in samples if s[1] is not None and s[1] > -1000]  # -Infinity (silence) arrives as null
    levels = sorted(s[1] for s in samples)
    if not levels:
        return {"onsets_ms": [], "quiet_db": None, "loud_db": None}
    quiet, loud = levels[len(levels) // 2], levels[-1]
    onsets, above = [], False
    if loud - quiet >= 20:
        threshold = (quiet + loud) / 2
        for t, level, _ in samples:
            if level > threshold and not above:
                onsets.append(t)
            above = level > threshold
    return {"onsets_ms": onsets, "quiet_db": round(quiet, 1), "loud_db": round(loud, 1)}


def audio_figures(first, last):
    """What the audio receiver's getStats counted between two snapshots' webrtc figures."""
    if not first or not last:
        return None
    return {name: round(last[name] - first[name], 6) for name in
            ["audioPackets", "audioSamples", "audioConcealed", "audioEnergy"]}


def webrtc_window(driver, seconds, stats):
    """Frames presented, decoded and dropped and audio received over `seconds`, beside the frames
    the server encoded meanwhile; and the last snapshot."""
    first, encoded_first = snapshot(driver), frames_encoded(stats)
    began = time.time()
    time.sleep(seconds)
    last, encoded_last = snapshot(driver), frames_encoded(stats)
    elapsed = time.time() - began
    video_first, video_last = first["webrtc"] or {}, last["webrtc"] or {}
    delta = lambda name: (video_last.get(name, 0) - video_first.get(name, 0))
    return {
        "seconds": round(elapsed, 2),
        "presented": last["presentedFrames"] - first["presentedFrames"],
        "total_video_frames": last["totalVideoFrames"] - first["totalVideoFrames"],
        "dropped_video_frames": last["droppedVideoFrames"] - first["droppedVideoFrames"],
        "frames_received": delta("framesReceived"), "frames_decoded": delta("framesDecoded"),
        "frames_dropped": delta("framesDropped"), "freezes": delta("freezeCount"),
        "encoded": encoded_in(encoded_first, encoded_last, elapsed),
        "audio": audio_figures(video_first, video_last), "ahead": last["ahead"],
    }, last


def webrtc(args, driver):
    result = {}
    driver.get(args.url)
    state, waited = wait_for(driver, lambda s: s["transport"] == "webrtc" and playing(s) and s["firstFrameMs"] is not None,
                             args.timeout, interval=0.05)
    result["first_state"] = state
    result["transport"] = state["transport"] if state else None
    if waited is None:
        return result
    result["first_frame_ms"] = state["firstFrameMs"]
    time.sleep(2.0)  # past the start
    windows = []
    for _ in range(args.tries):
        window, last = webrtc_window(driver, args.measure, stats_url(args.url))
        windows.append(window)
        rate = window["encoded"] or args.fps * window["seconds"]
        if window["dropped_video_frames"] < 0.02 * max(1, window["total_video_frames"]) and window["frames_decoded"] >= 0.9 * rate:
            break
    result["playback"] = dict(windows[-1], windows=len(windows), all_windows=windows)
    result["snapshot"] = last
    result["page_latency_ms"] = latency_figures(driver.execute_script("return window.onair.latencyLog.slice(-300);"))
    log_start = driver.execute_script("return window.onair.frameLog.length;")
    result["code_frames"] = driver.execute_async_script(CODE_FRAMES_SCRIPT, args.code_frames, args.code_rows)
    time.sleep(0.5)  # the page's log holds the last of them too
    result["page_frames"] = driver.execute_script("return window.onair.frameLog.slice(arguments[0]);", log_start)
    # Sound on: the same connection, the element unmuted.
    driver.find_element("id", "sound").click()
    time.sleep(1.0)
    before = snapshot(driver)
    analysis = driver.execute_async_script(AUDIO_SCRIPT, args.measure_after)
    after = snapshot(driver)
    result["sound"] = {"muted_before_click": last["muted"], "muted_after_click": before["muted"], "connections_before": before["connections"],
                       "connections_after": after["connections"], "stats": audio_figures(before["webrtc"], after["webrtc"]),
                       "analyser_state": analysis.get("state"), "analyser_error": analysis.get("error"),
                       "samples": len(analysis.get("samples", [])), "beeps": beeps(analysis.get("samples", []))}
    return result


def fallback(args, driver):
    driver.get(args.url)
    state, waited = wait_for(driver, lambda s: s["transport"] == "mse" and playing(s), args.timeout)
    return {"played_seconds": waited, "transport": state["transport"] if state else None,
            "fallback_reason": state["fallbackReason"] if state else None,
            "fallback_at_ms": state["fallbackAtMs"] if state else None,
            "transport_text": state["transportText"] if state else None, "snapshot": state}


def plays(args, driver):
    """Opens the page and waits until it plays (any transport); then counts frames for --measure s."""
    driver.get(args.url)
    state, waited = wait_for(driver, playing, args.timeout)
    result = {"played_seconds": waited, "transport": state["transport"] if state else None, "first_state": state}
    if waited is None:
        return result
    first = snapshot(driver)
    time.sleep(args.measure)
    last = snapshot(driver)
    result["frames"] = last["totalVideoFrames"] - first["totalVideoFrames"]
    result["transport"] = last["transport"]
    result["fallback_reason"] = last["fallbackReason"]
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["check", "status", "fuzz", "bench", "webrtc", "fallback", "plays"])
    parser.add_argument("--url", required=True)
    parser.add_argument("--server-command", help="JSON list: the server to start (and restart)")
    parser.add_argument("--server-log", default=os.devnull)
    parser.add_argument("--timeout", type=float, default=20, help="seconds to wait for the first playback")
    parser.add_argument("--measure", type=float, default=10)
    parser.add_argument("--measure-after", type=float, default=4)
    parser.add_argument("--tries", type=int, default=3, help="check: windows to measure before giving up on the rate")
    parser.add_argument("--fps", type=float, default=30, help="the stream's nominal frame rate")
    parser.add_argument("--restart", action="store_true")
    parser.add_argument("--sound", action="store_true", help="check: then turn the sound on and measure again")
    parser.add_argument("--down", type=float, default=3, help="seconds the server stays stopped")
    parser.add_argument("--quick-restart", type=float, help="check: SIGINT, start again after these seconds, time 30 new frames")
    parser.add_argument("--screenshot", default=os.path.join(tempfile.gettempdir(), "preview.png"))
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--window", default="1280x1000")
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--code-frames", type=int, default=45, help="webrtc: presented frames whose code strip is returned")
    parser.add_argument("--network-log", action="store_true", help="list every request Chromium sent (url, type) as 'requests'")
    parser.add_argument("--code-rows", type=int, default=96, help="webrtc: rows of the picture's top returned per frame")
    parser.add_argument("--spki", help="base64 SHA-256 of the server's public key: Chromium trusts that key over HTTPS")
    parser.add_argument("--ca-file", help="the CA this script's own HTTPS requests (/stats.json) trust")
    args = parser.parse_args()
    if args.ca_file:
        context = ssl.create_default_context(cafile=args.ca_file)
        urllib.request.install_opener(urllib.request.build_opener(urllib.request.HTTPSHandler(context=context)))
    if (args.restart or args.quick_restart is not None) and not args.server_command:
        parser.error("--restart needs --server-command")
    command = json.loads(args.server_command) if args.server_command else None
    learnt = command is not None and any(PORT in part for part in command)
    log_path = args.server_log
    if learnt and log_path == os.devnull:  # the ready line is read back from the log
        log_path = os.path.join(tempfile.mkdtemp(prefix="preview-server-"), "server.log")
    server = ServerProcess(command, None if learnt else urllib.parse.urlsplit(args.url).port, log_path)
    profile = tempfile.mkdtemp(prefix="preview-chromium-")
    driver = None
    result = {"mode": args.mode}
    try:
        server.start()
        args.url = args.url.replace(PORT, str(server.port))
        width, height = (int(v) for v in args.window.split("x"))
        driver = open_browser(profile, width, height, args.network_log, args.spki)
        modes = {"check": lambda: check(args, driver, server), "status": lambda: status(args, driver),
                 "fuzz": lambda: fuzz(args, driver), "bench": lambda: bench(args, driver),
                 "webrtc": lambda: webrtc(args, driver), "fallback": lambda: fallback(args, driver),
                 "plays": lambda: plays(args, driver)}
        result.update(modes[args.mode]())
        result["console"] = [entry["message"][:300] for entry in driver.get_log("browser")][-30:]
        if args.network_log:
            result["requests"] = requests_made(driver)
        result["ok"] = True
    except Exception as error:  # reported, not raised: the caller reads the JSON
        result["ok"] = False
        result["error"] = "%s: %s" % (type(error).__name__, error)
    finally:
        if driver is not None:
            try:
                driver.quit()
            except Exception as error:
                result["quit_error"] = str(error)
        server.stop()
        shutil.rmtree(profile, ignore_errors=True)
    print(json.dumps(result, indent=1))
    sys.exit(0 if result["ok"] else 1)


if __name__ == "__main__":
    main()
