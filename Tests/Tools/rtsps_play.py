#!/usr/bin/python3
"""Plays rtsps://… with GStreamer's rtspsrc checking the server's certificate against a CA file
(a GTlsFileDatabase: GStreamer has no command-line way to give one) and prints what arrived as
JSON: {"frames": decoded video frames, "error": the first error or null}.

    rtsps_play.py URL CA_FILE SECONDS [USER PASSWORD]

RTSPS_PROTOCOLS=udp asks for the media over UDP (plain RTP beside the TLS connection) instead of
interleaved in it.
"""
import json
import os
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gio, GLib, Gst  # noqa: E402


def main():
    url, ca, seconds = sys.argv[1], os.path.abspath(sys.argv[2]), float(sys.argv[3])
    Gst.init(None)
    pipeline = Gst.parse_launch(
        "rtspsrc name=src latency=200 ! rtph264depay ! avdec_h264 ! fakesink name=sink signal-handoffs=true"
    )
    source = pipeline.get_by_name("src")
    source.set_property("location", url)
    source.set_property("protocols", os.environ.get("RTSPS_PROTOCOLS", "tcp"))
    source.set_property("tls-database", Gio.TlsFileDatabase.new(ca))
    if len(sys.argv) > 5:
        source.set_property("user-id", sys.argv[4])
        source.set_property("user-pw", sys.argv[5])
    result = {"frames": 0, "error": None}

    def handoff(*_):
        result["frames"] += 1

    pipeline.get_by_name("sink").connect("handoff", handoff)
    loop = GLib.MainLoop()

    def message(_, msg):
        if msg.type == Gst.MessageType.ERROR and result["error"] is None:
            error, debug = msg.parse_error()
            result["error"] = f"{error.message} ({debug})"
            loop.quit()
        elif msg.type == Gst.MessageType.EOS:
            loop.quit()

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", message)
    pipeline.set_state(Gst.State.PLAYING)
    GLib.timeout_add(int(seconds * 1000), loop.quit)
    loop.run()
    pipeline.set_state(Gst.State.NULL)
    print(json.dumps(result))


main()
