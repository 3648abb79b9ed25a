#!/usr/bin/python3
"""An RTSPS server that accepts one publisher (ANNOUNCE/RECORD, RTP interleaved in TLS), decodes the
H.264 it receives and counts the AAC frames: gst-rtsp-server in RECORD mode with a certificate of
the test's own, the independent receiving end of `onair stream rtsps://`.

    rtsps_record_server.py PORT CERT_PEM KEY_PEM SECONDS

PORT 0 picks a free port. Prints "listening 127.0.0.1:PORT" (the port bound) once it listens; stops after SECONDS, or once the publisher has left and its
last frame is decoded, and
prints {"video_frames": decoded pictures, "audio_frames": AAC frames}.
"""
import json
import sys
import time

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtsp", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import Gio, GLib, Gst, GstRtsp, GstRtspServer  # noqa: E402


def main():
    port, cert, key, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    counts = {"video_frames": 0, "audio_frames": 0}
    Gst.init(None)
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(port)
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_transport_mode(GstRtspServer.RTSPTransportMode.RECORD)
    factory.set_protocols(GstRtsp.RTSPLowerTrans.TCP)  # media inside the TLS connection
    factory.set_launch(
        "( rtph264depay name=depay0 ! h264parse ! avdec_h264 ! fakesink name=video signal-handoffs=true "
        "rtpmp4gdepay name=depay1 ! aacparse ! fakesink name=audio signal-handoffs=true )")

    def media_configure(_, media):
        bin = media.get_element()
        for name in ("video", "audio"):
            sink = bin.get_by_name(name)
            if sink:
                sink.connect("handoff", lambda _, buffer, __, key=name: handoff(key, buffer))

    last_frame = [time.monotonic()]

    def handoff(key, buffer):
        last_frame[0] = time.monotonic()
        counts[key + "_frames"] += 1
        if key == "video":
            pts = buffer.pts / Gst.SECOND if buffer.pts != Gst.CLOCK_TIME_NONE else None
            counts.setdefault("video_first_pts", pts)
            counts["video_last_pts"] = pts

    factory.connect("media-configure", media_configure)
    auth = GstRtspServer.RTSPAuth()
    with open(cert) as c, open(key) as k:
        auth.set_tls_certificate(Gio.TlsCertificate.new_from_pem(c.read() + k.read(), -1))
    token = GstRtspServer.RTSPToken()
    token.set_string(GstRtspServer.RTSP_TOKEN_MEDIA_FACTORY_ROLE, "publisher")
    auth.set_default_token(token)
    server.set_auth(auth)
    factory.add_role_from_structure(Gst.Structure.from_string(
        "publisher, media.factory.access=(boolean)true, media.factory.construct=(boolean)true")[0])
    server.get_mount_points().add_factory("/live", factory)
    loop = GLib.MainLoop()

    def when_drained():
        # The publisher has gone: quit once what it sent is through the decoder (no frame for 1.5 s).
        if time.monotonic() - last_frame[0] < 1.5:
            return True
        loop.quit()
        return False

    def client_connected(_, client):
        client.connect("closed", lambda *_: GLib.timeout_add(250, when_drained))

    server.connect("client-connected", client_connected)
    server.attach(None)
    print("listening 127.0.0.1:%d" % server.get_bound_port(), flush=True)
    GLib.timeout_add(int(seconds * 1000), loop.quit)
    loop.run()
    print(json.dumps(counts), flush=True)


main()
