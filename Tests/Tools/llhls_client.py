#!/usr/bin/env python3
"""A Low-Latency HLS client written to the specification (draft-pantos-hls-rfc8216bis), for
LowLatencyHLSServeTests: it follows a live media playlist the way the specification tells a
client to (blocking playlist reloads for the next part, the preload hint's part requested before
it is listed, parts fetched as they come), and checks what a server must do. Every playlist it
reads is also parsed by PyPI's m3u8 package, and the two readings must agree.

Prints one JSON summary on stdout; exits 1 when a rule is broken (the reasons are in "failures").
With --relay it only plays: it starts PART-HOLD-BACK from the live edge at an independent part, as
the specification tells a client to, and writes the init section and each part as it comes to
stdout (for `onair play --measure-latency pipe:0`, bench/llhls_latency.sh).

    llhls_client.py --url http://127.0.0.1:PORT --playlist live.m3u8 [--token T] [--seconds 4]
    llhls_client.py --url http://127.0.0.1:PORT --relay 20 | onair play --measure-latency pipe:0
    llhls_client.py --url http://127.0.0.1:PORT --gaps /tmp/onair-serve-PID-N --seconds 20

With --gaps DIRECTORY (the server's HLS directory, on this machine) it measures how soon a blocking
reload for the next part is answered once the part is published: the answer's arrival on the wall
clock against the part file's modification time (the writer stores the part, then publishes it),
for the reloads sent before the part existed; prints p50/p95/max in milliseconds as JSON, with how
much later than the moment of writing this file system's mtime was seen to read (mtime_lead_ms:
the true gap is at most the figure plus it).
"""

import argparse
import json
import os
import re
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import m3u8

failures = []


def fail(reason):
    failures.append(reason)


def get(url, timeout=10):
    """(status, headers, body, seconds taken, monotonic time of the answer)."""
    start = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            body = answer.read()
            return answer.status, dict(answer.headers), body, time.monotonic() - start, time.monotonic()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read(), time.monotonic() - start, time.monotonic()


def attributes(line):
    """The attribute list of a tag line, quoted values unquoted."""
    text = line.split(":", 1)[1] if ":" in line else ""
    return {key: value.strip('"') for key, value in re.findall(r'([A-Z0-9-]+)=("[^"]*"|[^,]*)', text)}


class Playlist:
    """A media playlist read by this client's own parser: segments by media sequence number,
    each with its URI (None while it is written) and parts, and the playlist-wide tags."""

    def __init__(self, text):
        self.text = text
        lines = text.splitlines()
        if not lines or lines[0] != "#EXTM3U":
            raise ValueError("not a playlist")
        self.tags = {}
        self.segments = []  # [{"msn", "uri", "parts": [{"uri", "duration", "independent"}], "date"}]
        self.uris = []  # every URI the playlist names, with the tag it came from
        self.hint = None
        self.reports = []
        self.skipped = 0
        sequence = None
        self.map = None
        pending = {"parts": [], "date": None}
        for line in lines[1:]:
            if line.startswith("#EXT-X-MEDIA-SEQUENCE:"):
                sequence = int(line.split(":")[1])
            elif line.startswith("#EXT-X-SKIP:"):
                self.skipped = int(attributes(line)["SKIPPED-SEGMENTS"])
            elif line.startswith("#EXT-X-PART:"):
                pending["map"] = self.map
                fields = attributes(line)
                pending["parts"].append(
                    {"uri": fields["URI"], "duration": float(fields["DURATION"]), "independent": fields.get("INDEPENDENT") == "YES"})
                self.uris.append(("PART", fields["URI"]))
            elif line.startswith("#EXT-X-PROGRAM-DATE-TIME:"):
                pending["date"] = line.split(":", 1)[1]
            elif line.startswith("#EXT-X-PRELOAD-HINT:"):
                self.hint = attributes(line)["URI"]
                self.uris.append(("PRELOAD-HINT", self.hint))
            elif line.startswith("#EXT-X-RENDITION-REPORT:"):
                fields = attributes(line)
                self.reports.append(fields)
                self.uris.append(("RENDITION-REPORT", fields["URI"]))
            elif line.startswith("#EXT-X-MAP:"):
                self.map = attributes(line)["URI"]
                self.uris.append(("MAP", self.map))
            elif line.startswith("#EXTINF:"):
                pending["duration"] = float(line[8:].split(",")[0])
            elif line.startswith("#"):
                name, _, value = line[1:].partition(":")
                self.tags[name] = value
            elif line:
                self.uris.append(("SEGMENT", line))
                self.segments.append(dict(pending, uri=line, map=self.map))
                pending = {"parts": [], "date": None}
        if pending["parts"]:
            self.segments.append(dict(pending, uri=None))
        first = (sequence or 0) + self.skipped
        for index, segment in enumerate(self.segments):
            segment["msn"] = first + index
        self.media_sequence = sequence or 0

    def last_part(self):
        """(msn, index) of the last part listed."""
        for segment in reversed(self.segments):
            if segment["parts"]:
                return segment["msn"], len(segment["parts"]) - 1
        return self.segments[-1]["msn"] + 1, -1

    def next_part(self):
        """(msn, index) of the part to come: the next of the segment being written, or the first
        of the next segment once the last is finished."""
        last = self.segments[-1]
        return (last["msn"] + 1, 0) if last["uri"] else (last["msn"], len(last["parts"]))

    def cross_check(self, parsed):
        """The m3u8 package's reading against this one."""
        ours = [(s["uri"], [p["uri"] for p in s["parts"]]) for s in self.segments]
        theirs = [(s.uri, [p.uri for p in s.parts]) for s in parsed.segments]
        if ours != theirs:
            fail(f"m3u8 reads other segments or parts: {theirs} against {ours}")
        if parsed.media_sequence != self.media_sequence:
            fail(f"m3u8 reads media sequence {parsed.media_sequence}, not {self.media_sequence}")
        if (parsed.preload_hint.uri if parsed.preload_hint else None) != self.hint:
            fail("m3u8 reads another preload hint")
        if [(r.uri, r.last_msn, r.last_part) for r in parsed.rendition_reports] != [
            (r["URI"], int(r["LAST-MSN"]), int(r["LAST-PART"])) for r in self.reports
        ]:
            fail("m3u8 reads other rendition reports")
        if (parsed.skip.skipped_segments if parsed.skip else 0) != self.skipped:
            fail("m3u8 reads another EXT-X-SKIP")


class Client:
    def __init__(self, base, playlist, token):
        self.base = base.rstrip("/") + "/"
        self.playlist_url = urllib.parse.urljoin(self.base, playlist)
        self.token = token
        self.parts = {}  # part URI (without query) -> bytes
        self.requests = 0

    def url(self, relative, **directives):
        """A URI of the playlist resolved against it, with the delivery directives added."""
        absolute = urllib.parse.urljoin(self.playlist_url, relative)
        if not directives:
            return absolute
        return absolute + ("&" if "?" in absolute else "?") + urllib.parse.urlencode(directives)

    def playlist(self, **directives):
        query = dict(directives)
        if self.token:
            query["token"] = self.token
        status, headers, body, taken, answered = get(self.url(self.playlist_url.rsplit("/", 1)[1], **query))
        self.requests += 1
        if status != 200:
            return status, None, headers, taken, answered
        text = body.decode()
        playlist = Playlist(text)
        playlist.cross_check(m3u8.loads(text))
        return status, playlist, headers, taken, answered


def check_tags(playlist, token):
    target = int(playlist.tags.get("EXT-X-TARGETDURATION", "0"))
    control = attributes("#X:" + playlist.tags.get("EXT-X-SERVER-CONTROL", ""))
    part_target = float(attributes("#X:" + playlist.tags.get("EXT-X-PART-INF", "")).get("PART-TARGET", "0"))
    if control.get("CAN-BLOCK-RELOAD") != "YES":
        fail("no CAN-BLOCK-RELOAD=YES")
    if float(control.get("PART-HOLD-BACK", "0")) < 3 * part_target - 1e-6:
        fail(f"PART-HOLD-BACK {control.get('PART-HOLD-BACK')} is less than three part targets ({part_target})")
    if float(control.get("CAN-SKIP-UNTIL", "0")) < 6 * target:
        fail(f"CAN-SKIP-UNTIL {control.get('CAN-SKIP-UNTIL')} is less than six target durations ({target})")
    if int(playlist.tags.get("EXT-X-VERSION", "0")) < 9:
        fail("EXT-X-VERSION below 9 with EXT-X-SKIP possible")
    for segment in playlist.segments:
        if segment["uri"] and segment.get("duration", 0) > target + 0.5:
            fail(f"segment {segment['uri']} of {segment['duration']} s is longer than the target {target} s")
        for index, part in enumerate(segment["parts"]):
            if part["duration"] > part_target + 1e-3:
                fail(f"part {part['uri']} of {part['duration']} s is longer than PART-TARGET {part_target}")
            if index == 0 and not part["independent"]:
                fail(f"part {part['uri']} starts a segment without INDEPENDENT=YES")
        if segment["uri"] and segment["date"] is None:
            fail(f"segment {segment['uri']} has no EXT-X-PROGRAM-DATE-TIME")
    if token:
        for tag, uri in playlist.uris:
            if urllib.parse.parse_qs(urllib.parse.urlsplit(uri).query).get("token") != [token]:
                fail(f"{tag} URI {uri} does not carry the token")
    return target, part_target


def relay(client, seconds):
    """Plays the live edge to stdout: from the independent part at or before PART-HOLD-BACK from
    the end, each next part asked by blocking reload, the init section first and again when it
    changes."""
    out = sys.stdout.buffer
    playlist = client.playlist()[1]
    hold_back = float(attributes("#X:" + playlist.tags.get("EXT-X-SERVER-CONTROL", "")).get("PART-HOLD-BACK", "0"))
    parts = [(s["msn"], index, part, s.get("map")) for s in playlist.segments for index, part in enumerate(s["parts"])]
    start, behind = 0, 0.0
    for position in range(len(parts) - 1, -1, -1):
        behind += parts[position][2]["duration"]
        if behind >= hold_back:
            start = position
            break
    while start > 0 and not parts[start][2]["independent"]:
        start -= 1
    msn, index = parts[start][0], parts[start][1]
    written_map, sent = None, 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        segment = next((s for s in playlist.segments if s["msn"] == msn), None)
        if segment is not None and index < len(segment["parts"]):
            if segment.get("map") != written_map:
                out.write(get(client.url(segment["map"]))[2])
                written_map = segment["map"]
            status, _, body, _, _ = get(client.url(segment["parts"][index]["uri"]))
            if status == 200:
                out.write(body)
                out.flush()
                sent += 1
            index += 1
            continue
        if segment is not None and segment["uri"]:
            msn, index = msn + 1, 0  # that segment is finished: its next part is the next one's first
            continue
        if segment is None and playlist.segments and msn < playlist.segments[0]["msn"]:
            return sent  # fell out of the window
        status, fresh = client.playlist(_HLS_msn=msn, _HLS_part=index)[:2]
        if fresh is None:
            return sent
        playlist = fresh
    return sent


def gaps(client, seconds, directory):
    """Blocking reloads for the next part, each sent as soon as the previous is answered: for
    those sent before their part's file existed, the time from the file's writing to the answer."""
    # The file system's clock against the wall clock: how much later than the moment of writing an
    # mtime can read (a coarse clock rounds), measured on probe files in the same directory.
    lead = 0.0
    probe = os.path.join(directory, f".gap-probe-{os.getpid()}")
    for _ in range(50):
        before = time.time()
        with open(probe, "wb") as file:
            file.write(b"x")
        lead = max(lead, os.stat(probe).st_mtime - before)
        time.sleep(0.002)
    os.unlink(probe)
    playlist = client.playlist()[1]
    held, late, missing = [], 0, 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        msn, part = playlist.next_part()
        name = os.path.join(directory, f"part_{msn}_{part}.m4s")
        sent = time.time()
        status, fresh, _, _, arrived = client.playlist(_HLS_msn=msn, _HLS_part=part)
        answered = time.time() - (time.monotonic() - arrived)  # when the body was read, before parsing it
        if fresh is None:
            fail(f"blocking reload for {msn}.{part}: {status}")
            break
        try:
            written = os.stat(name).st_mtime
        except FileNotFoundError:
            missing += 1  # the next segment's first part is named after a finished segment
            playlist = fresh
            continue
        if written < sent:
            late += 1  # it existed before the request: not held
        else:
            held.append(1000 * (answered - written))
        playlist = fresh
    held.sort()
    pick = lambda q: held[min(len(held) - 1, int(q * len(held)))] if held else None
    return {"held": len(held), "not_held": late, "unnamed": missing, "p50_ms": pick(0.5), "p95_ms": pick(0.95),
            "max_ms": held[-1] if held else None, "mtime_lead_ms": 1000 * lead, "failures": failures}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--playlist", default="live.m3u8")
    parser.add_argument("--token")
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--relay", type=float, metavar="SECONDS", help="write the parts to stdout for SECONDS")
    parser.add_argument("--gaps", metavar="DIRECTORY", help="time blocking reloads against the part files of DIRECTORY")
    arguments = parser.parse_args()
    client = Client(arguments.url, arguments.playlist, arguments.token)
    if arguments.gaps:
        report = gaps(client, arguments.seconds, arguments.gaps)
        print(json.dumps(report))
        return 1 if failures else 0
    if arguments.relay:
        sent = relay(client, arguments.relay)
        print(f"llhls_client: relayed {sent} parts", file=sys.stderr)
        return 0
    summary = {}

    status, full, headers, _, _ = client.playlist()
    if full is None:
        print(json.dumps({"failures": [f"playlist: {status}"]}))
        return 1
    target, part_target = check_tags(full, arguments.token)
    summary["reports"] = [report["URI"] for report in full.reports]
    summary["playlist_cache"] = headers.get("Cache-Control")
    if arguments.token:
        bare = get(urllib.parse.urljoin(client.base, arguments.playlist))[0]
        summary["without_token"] = bare

    # Following the live edge: a blocking reload for the next part, and its preload hint asked at once.
    holds, hints, identical, mismatched, compared = [], [], 0, [], set()
    playlist = full
    deadline = time.monotonic() + arguments.seconds
    while time.monotonic() < deadline:
        msn, part = playlist.next_part()
        hint = {}
        if playlist.hint:
            def fetch(uri=playlist.hint, into=hint):
                into["status"], into["headers"], into["body"], _, into["answered"] = get(client.url(uri))
            hint_thread = threading.Thread(target=fetch)
            hint_thread.start()
        else:
            hint_thread = None
        status, next_playlist, headers, taken, answered = client.playlist(_HLS_msn=msn, _HLS_part=part)
        if next_playlist is None:
            fail(f"blocking reload for {msn}.{part}: {status}")
            break
        check_tags(next_playlist, arguments.token)
        holds.append(taken)
        summary["blocking_cache"] = headers.get("Cache-Control")
        new_last = next_playlist.last_part()
        if new_last < (msn, part) and not any(s["msn"] == msn and s["uri"] for s in next_playlist.segments):
            fail(f"the answer to a blocking reload for {msn}.{part} ends at {new_last}")
        # Every part listed and not yet fetched is fetched (the hinted one comes from its own request).
        for segment in next_playlist.segments:
            for entry in segment["parts"]:
                key = entry["uri"].split("?")[0]
                if key in client.parts:
                    continue
                if hint_thread and entry["uri"] == playlist.hint:
                    hint_thread.join(10)
                    hint_thread = None
                    if hint.get("status") != 200:
                        fail(f"preload hint {entry['uri']}: {hint.get('status')}")
                        continue
                    hints.append(max(0.0, hint["answered"] - answered))
                    client.parts[key] = hint["body"]
                    summary["part_cache"] = hint["headers"].get("Cache-Control")
                    continue
                status, part_headers, body, _, _ = get(client.url(entry["uri"]))
                if status != 200:
                    fail(f"part {entry['uri']}: {status}")
                    continue
                client.parts[key] = body
                summary["part_cache"] = part_headers.get("Cache-Control")
        if hint_thread:
            hint_thread.join(10)
        # A finished segment all of whose parts were fetched is their bytes, in order.
        for segment in next_playlist.segments:
            keys = [entry["uri"].split("?")[0] for entry in segment["parts"]]
            if segment["uri"] and keys and segment["uri"] not in compared and all(key in client.parts for key in keys):
                compared.add(segment["uri"])
                status, _, body, _, _ = get(client.url(segment["uri"]))
                joined = b"".join(client.parts[key] for key in keys)
                if status == 200 and body == joined:
                    identical += 1
                else:
                    mismatched.append(segment["uri"])
        playlist = next_playlist
    summary["holds"] = holds
    summary["hint_after_playlist"] = hints
    summary["identical_segments"] = identical
    if mismatched:
        fail(f"segments not byte-identical to their parts: {mismatched}")

    # A delta update merges into the full playlist taken at the same state.
    msn, part = playlist.last_part()
    if part < 0:
        msn, part = msn - 1, 0
    for _ in range(5):
        _, whole, _, _, _ = client.playlist(_HLS_msn=msn, _HLS_part=part)
        _, delta, _, _, _ = client.playlist(_HLS_msn=msn, _HLS_part=part, _HLS_skip="YES")
        if whole and delta and whole.media_sequence == delta.media_sequence:
            break
    summary["skipped"] = delta.skipped if delta else None
    if delta is None or delta.skipped == 0:
        fail("a delta update skips nothing")
    else:
        merged = {s["msn"]: s["uri"] for s in whole.segments if s["uri"]}
        for segment in delta.segments:
            if segment["uri"] and merged.get(segment["msn"], segment["uri"]) != segment["uri"]:
                fail(f"delta segment {segment['msn']} is {segment['uri']}, the full playlist's {merged.get(segment['msn'])}")
            if segment["uri"]:
                merged[segment["msn"]] = segment["uri"]
        numbers = sorted(merged)
        if numbers != list(range(whole.media_sequence, numbers[-1] + 1)):
            fail(f"the merged playlist has gaps: {numbers}")
        summary["merged_segments"] = len(numbers)

    # Too far ahead: 400 at once.
    status = client.playlist(_HLS_msn=msn + 10)[0]
    summary["far_ahead"] = status
    summary["target_duration"] = target
    summary["part_target"] = part_target
    summary["requests"] = client.requests
    summary["failures"] = failures
    print(json.dumps(summary))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
