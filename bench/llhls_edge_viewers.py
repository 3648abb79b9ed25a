#!/usr/bin/env python3
"""Low-Latency HLS viewers over HTTPS with HTTP/2, for bench/edge_scale.sh (MODE=llhls): each
viewer has its own TLS connection (ALPN h2, the certificate not checked) and follows the live edge
of /live.m3u8 as an LL-HLS player does: a blocking playlist reload for the part the preload hint
names (`_HLS_msn`/`_HLS_part`), then a GET of that part once the answer lists it, and again.

    llhls_edge_viewers.py --port P --viewers N --seconds S [--ramp R]   # JSON summary on stdout
    llhls_edge_viewers.py --port P --relay S | onair play --measure-latency pipe:0

--relay: one viewer that writes the init section and each part it gets to stdout, from the next
segment's first (independent) part on, for glass-to-decode through the edge.

Needs PyPI's h2 (the bench installs it in a scratch virtual environment when missing).
"""

import argparse
import asyncio
import json
import re
import ssl
import sys
import time

import h2.config
import h2.connection
import h2.events

HINT = re.compile(r'#EXT-X-PRELOAD-HINT:TYPE=PART,URI="part_(\d+)_(\d+)\.m4s')


class Connection:
    """One HTTP/2 connection: GETs as concurrent streams, each answered as (status, headers, body)."""

    def __init__(self, port):
        self.port = port
        self.streams = {}
        self.closed = None

    async def open(self):
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        context.set_alpn_protocols(["h2"])
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, ssl=context)
        protocol = self.writer.get_extra_info("ssl_object").selected_alpn_protocol()
        if protocol != "h2":
            raise RuntimeError(f"the edge spoke {protocol}, not h2")
        self.h2 = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        self.h2.initiate_connection()
        self.h2.increment_flow_control_window(16 * 1024 * 1024)
        self.writer.write(self.h2.data_to_send())
        self.pump_task = asyncio.get_running_loop().create_task(self.pump())

    async def get(self, path):
        if self.closed:
            raise ConnectionError(self.closed)
        stream = self.h2.get_next_available_stream_id()
        answer = asyncio.get_running_loop().create_future()
        self.streams[stream] = {"answer": answer, "status": 0, "headers": {}, "body": bytearray()}
        self.h2.send_headers(
            stream, [(":method", "GET"), (":scheme", "https"), (":authority", f"127.0.0.1:{self.port}"), (":path", path)],
            end_stream=True)
        self.writer.write(self.h2.data_to_send())
        return await answer

    def end(self, reason):
        self.closed = reason
        for entry in self.streams.values():
            if not entry["answer"].done():
                entry["answer"].set_exception(ConnectionError(reason))
        self.streams.clear()

    async def pump(self):
        try:
            while True:
                data = await self.reader.read(256 * 1024)
                if not data:
                    return self.end("closed by the edge")
                for event in self.h2.receive_data(data):
                    entry = self.streams.get(getattr(event, "stream_id", None))
                    if isinstance(event, h2.events.ResponseReceived) and entry:
                        entry["headers"] = dict(event.headers)
                        entry["status"] = int(entry["headers"].get(":status", "0"))
                    elif isinstance(event, h2.events.DataReceived):
                        if entry:
                            entry["body"] += event.data
                        self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, h2.events.StreamEnded) and entry:
                        del self.streams[event.stream_id]
                        entry["answer"].set_result((entry["status"], entry["headers"], bytes(entry["body"])))
                    elif isinstance(event, h2.events.StreamReset) and entry:
                        del self.streams[event.stream_id]
                        entry["answer"].set_exception(ConnectionError(f"stream reset {event.error_code}"))
                    elif isinstance(event, h2.events.ConnectionTerminated):
                        return self.end(f"GOAWAY {event.error_code}")
                out = self.h2.data_to_send()
                if out:
                    self.writer.write(out)
        except Exception as error:  # the connection broke: every open stream fails with it
            self.end(repr(error))


def hint(text):
    found = HINT.search(text)
    return (int(found.group(1)), int(found.group(2))) if found else None


class Figures:
    def __init__(self):
        self.part_seconds = []
        self.playlist_seconds = []
        self.parts = 0
        self.errors = {}
        self.connected = 0

    def error(self, kind):
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def viewer(port, delay, end, figures):
    await asyncio.sleep(delay)
    connection = Connection(port)
    try:
        await connection.open()
    except Exception as error:
        return figures.error(f"connect: {type(error).__name__}")
    figures.connected += 1
    next_part = None
    while time.monotonic() < end:
        try:
            if next_part is None:
                status, _, body = await connection.get("/live.m3u8")
                if status != 200:
                    figures.error(f"playlist {status}")
                    await asyncio.sleep(0.2)
                    continue
                next_part = hint(body.decode())
                continue
            msn, part = next_part
            asked = time.monotonic()
            status, _, body = await connection.get(f"/live.m3u8?_HLS_msn={msn}&_HLS_part={part}")
            figures.playlist_seconds.append(time.monotonic() - asked)
            if status != 200:
                figures.error(f"blocking reload {status}")
                next_part = None
                continue
            text = body.decode()
            name = f"part_{msn}_{part}.m4s"
            if f'URI="{name}"' in text:
                asked = time.monotonic()
                status, _, _ = await connection.get("/" + name)
                if status == 200:
                    figures.part_seconds.append(time.monotonic() - asked)
                    figures.parts += 1
                else:
                    figures.error(f"part {status}")
            next_part = hint(text)
        except Exception as error:
            figures.error(type(error).__name__)
            break
    connection.writer.close()


async def viewers(arguments):
    figures = Figures()
    start = time.monotonic()
    end = start + arguments.ramp + arguments.seconds
    tasks = [
        asyncio.get_running_loop().create_task(viewer(arguments.port, arguments.ramp * index / arguments.viewers, end, figures))
        for index in range(arguments.viewers)
    ]
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - start

    def percentile(values, q):
        values = sorted(values)
        return round(1000 * values[min(len(values) - 1, int(q * len(values)))], 1) if values else None

    print(json.dumps({
        "viewers": arguments.viewers, "connected": figures.connected, "seconds": round(elapsed, 1),
        "parts": figures.parts, "parts_per_viewer_per_second": round(figures.parts / max(1, figures.connected) / arguments.seconds, 2),
        "requests": len(figures.playlist_seconds) + len(figures.part_seconds),
        "part_fetch_ms": {"p50": percentile(figures.part_seconds, 0.5), "p95": percentile(figures.part_seconds, 0.95),
                          "max": percentile(figures.part_seconds, 1)},
        "blocking_reload_ms": {"p50": percentile(figures.playlist_seconds, 0.5), "p95": percentile(figures.playlist_seconds, 0.95)},
        "errors": figures.errors,
        # The samples, for merging the figures of several generator processes.
        "part_seconds": [round(x, 5) for x in figures.part_seconds] if arguments.samples else None,
        "reload_seconds": [round(x, 5) for x in figures.playlist_seconds] if arguments.samples else None,
    }))


async def relay(arguments):
    """One viewer writing the init section and the parts from the next segment's start to stdout."""
    out = sys.stdout.buffer
    connection = Connection(arguments.port)
    await connection.open()
    _, _, body = await connection.get("/live.m3u8")
    msn, _ = hint(body.decode())
    next_part = (msn + 1, 0)
    status, _, init = await connection.get("/init.mp4")
    out.write(init)
    sent = 0
    end = time.monotonic() + arguments.relay
    while time.monotonic() < end:
        msn, part = next_part
        status, _, body = await connection.get(f"/live.m3u8?_HLS_msn={msn}&_HLS_part={part}")
        if status != 200:
            break
        text = body.decode()
        name = f"part_{msn}_{part}.m4s"
        if f'URI="{name}"' in text:
            status, _, data = await connection.get("/" + name)
            if status == 200:
                out.write(data)
                out.flush()
                sent += 1
        # The part after it, in order: the same segment's next, or the next segment's first.
        following = (msn, part + 1)
        if f'URI="part_{msn}_{part + 1}.m4s"' not in text and hint(text) != following:
            following = (msn + 1, 0)
        next_part = following
    print(f"llhls_edge_viewers: relayed {sent} parts", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--ramp", type=float, default=5, help="seconds over which the viewers connect")
    parser.add_argument("--relay", type=float, metavar="SECONDS")
    parser.add_argument("--samples", action="store_true", help="add every fetch time to the summary")
    arguments = parser.parse_args()
    asyncio.run(relay(arguments) if arguments.relay else viewers(arguments))


if __name__ == "__main__":
    main()
