#!/usr/bin/env python3
"""Raw RTSP clients for the serve tests: hostile requests, and a TCP client that stops reading.

  rtsp_clients.py request PORT KIND   one request of KIND; prints the status code (0: no answer)
  rtsp_clients.py sdp PORT            DESCRIBE; prints the SDP
  rtsp_clients.py stall PORT SECONDS  DESCRIBE/SETUP (interleaved TCP)/PLAY, reads 1 s, then holds
                                      the connection SECONDS without reading; prints JSON
  rtsp_clients.py pending PORT DIR    DESCRIBE/SETUP (interleaved TCP), then PLAY each time the
                                      test creates DIR/playN (N = 1, 2, …, until DIR/done), with
                                      GET_PARAMETER keep-alives between; writes DIR/playN.json
                                      (status, interleaved bytes read in 2 s after a 200)
  rtsp_clients.py burst PORT SECONDS  DESCRIBE/SETUP (interleaved TCP)/PLAY, then reads SECONDS;
                                      prints JSON: video RTP packets, seconds from PLAY's answer to
                                      the first, and how far their media time (RTP timestamps) ran
                                      ahead of their arrival at most (the keyframe cache sent at
                                      once: its age; paced by the clock: about 0)
"""
import os
import json
import socket
import sys
import time


def connect(port, rcvbuf=None):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    return sock


def read_response(sock, every=None):
    """Reads one RTSP response (skipping interleaved $ frames); returns (status, headers, body).
    `every`, a list, gets each header as (lowercased name, value), repeated ones included."""
    data = b""
    while True:
        while data.startswith(b"$"):
            if len(data) < 4:
                break
            size = int.from_bytes(data[2:4], "big")
            if len(data) < 4 + size:
                break
            data = data[4 + size:]
        end = data.find(b"\r\n\r\n")
        if end >= 0 and not data.startswith(b"$"):
            head = data[:end].decode("latin-1").split("\r\n")
            headers = {}
            for line in head[1:]:
                if ":" in line:
                    key, value = line.split(":", 1)
                    headers[key.strip().lower()] = value.strip()
                    if every is not None:
                        every.append((key.strip().lower(), value.strip()))
            length = int(headers.get("content-length", "0"))
            while len(data) < end + 4 + length:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
            status = int(head[0].split()[1]) if len(head[0].split()) > 1 else 0
            return status, headers, data[end + 4:end + 4 + length]
        chunk = sock.recv(65536)
        if not chunk:
            return 0, {}, b""
        data += chunk


def send(sock, text):
    sock.sendall(text.encode("latin-1") if isinstance(text, str) else text)


def request(port, kind):
    print(ask(port, kind))


def ask(port, kind):
    url = f"rtsp://127.0.0.1:{port}/live"
    texts = {
        "garbage": b"\x00\x01\xffNOT RTSP AT ALL\r\n\r\n",
        "garbage-text": b"HELLO there, this is not RTSP\r\nfoo\r\n\r\n",
        "huge": (f"DESCRIBE {url} RTSP/1.0\r\nCSeq: 1\r\nContent-Length: 40960\r\n\r\n").encode() + b"x" * 40960,
        "huge-header": (f"DESCRIBE {url} RTSP/1.0\r\nCSeq: 1\r\nX-Filler: " + "y" * 40960 + "\r\n\r\n").encode(),
        "huge-options": (f"OPTIONS {url} RTSP/1.0\r\nCSeq: 1\r\nX-Filler: " + "y" * 40960 + "\r\n\r\n").encode(),
        "many-headers": (f"DESCRIBE {url} RTSP/1.0\r\nCSeq: 1\r\n"
                         + "".join(f"X-Filler-{i}: {'z' * 90}\r\n" for i in range(400)) + "\r\n").encode(),
        "long-header": (f"DESCRIBE {url} RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n"
                        f"User-Agent: {'u' * 3000}\r\n\r\n").encode(),
        "bad-cseq": f"DESCRIBE {url} RTSP/1.0\r\nCSeq: banana\r\n\r\n",
        "no-cseq": f"DESCRIBE {url} RTSP/1.0\r\n\r\n",
        "options": f"OPTIONS {url} RTSP/1.0\r\nCSeq: 7\r\n\r\n",
        "bad-transport": f"SETUP {url}/stream=0 RTSP/1.0\r\nCSeq: 1\r\nTransport: nonsense/xyz;;;=\r\n\r\n",
        "other-path": f"DESCRIBE rtsp://127.0.0.1:{port}/other RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n\r\n",
        "describe": f"DESCRIBE {url} RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n\r\n",
    }
    sock = connect(port)
    try:
        send(sock, texts[kind])
        status, _, _ = read_response(sock)
    except (OSError, ValueError, IndexError):
        status = 0
    return status


def stall(port, seconds):
    url = f"rtsp://127.0.0.1:{port}/live"
    sock = connect(port, rcvbuf=4096)
    status, session = setup(sock, url)
    send(sock, f"PLAY {url} RTSP/1.0\r\nCSeq: 9\r\nSession: {session}\r\n\r\n")
    play, _, _ = read_response(sock)
    got = 0
    deadline = time.time() + 1
    while time.time() < deadline:
        got += len(sock.recv(65536))
    time.sleep(seconds)
    sock.setblocking(False)
    closed = False
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                closed = True
                break
    except BlockingIOError:
        pass
    except OSError:
        closed = True
    print(json.dumps({"describe": status, "play": play, "bytes_first_second": got, "closed": closed}))


def burst(port, seconds):
    url = f"rtsp://127.0.0.1:{port}/live"
    sock = connect(port)
    status, session = setup(sock, url)
    send(sock, f"PLAY {url} RTSP/1.0\r\nCSeq: 9\r\nSession: {session}\r\n\r\n")
    play, _, _ = read_response(sock)
    answered = time.monotonic()
    data = b""
    first = None
    packets = 0
    ahead = 0.0
    deadline = time.monotonic() + seconds
    sock.settimeout(0.2)
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            break
        now = time.monotonic()
        data += chunk
        while len(data) >= 4 and data[0:1] == b"$":
            size = int.from_bytes(data[2:4], "big")
            if len(data) < 4 + size:
                break
            channel, frame = data[1], data[4:4 + size]
            data = data[4 + size:]
            if channel != 0 or len(frame) < 12:
                continue
            stamp = int.from_bytes(frame[4:8], "big")
            if first is None:
                first = (now, stamp)
            packets += 1
            media = ((stamp - first[1]) & 0xFFFFFFFF) / 90000
            ahead = max(ahead, media - (now - first[0]))
        if data and data[0:1] != b"$":
            data = b""  # an RTSP message between frames: not media
    print(json.dumps({"describe": status, "play": play, "packets": packets, "media_ahead": round(ahead, 3),
                      "first_after_play": round(first[0] - answered, 3) if first else None}))


def setup(sock, url):
    """DESCRIBE and SETUP every stream interleaved over `sock`; returns (describe status, session)."""
    send(sock, f"DESCRIBE {url} RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n\r\n")
    status, _, sdp = read_response(sock)
    controls = [line.split(":", 1)[1].strip() for line in sdp.decode().split("\r\n") if line.startswith("a=control:stream")]
    session = None
    for index, control in enumerate(controls):
        header = f"Session: {session}\r\n" if session else ""
        send(sock, f"SETUP {url}/{control} RTSP/1.0\r\nCSeq: {2 + index}\r\n{header}"
                   f"Transport: RTP/AVP/TCP;unicast;interleaved={2 * index}-{2 * index + 1}\r\n\r\n")
        _, headers, _ = read_response(sock)
        session = headers.get("session", "").split(";")[0]
    return status, session


def pending(port, directory):
    url = f"rtsp://127.0.0.1:{port}/live"
    sock = connect(port)
    status, session = setup(sock, url)
    with open(os.path.join(directory, "setup.json"), "w") as out:
        json.dump({"describe": status, "session": session}, out)
    cseq = 10
    round = 1
    last_keepalive = time.time()
    while not os.path.exists(os.path.join(directory, "done")):
        if not os.path.exists(os.path.join(directory, f"play{round}")):
            if time.time() - last_keepalive > 2:
                cseq += 1
                send(sock, f"GET_PARAMETER {url} RTSP/1.0\r\nCSeq: {cseq}\r\nSession: {session}\r\n\r\n")
                read_response(sock)
                last_keepalive = time.time()
            time.sleep(0.1)
            continue
        cseq += 1
        send(sock, f"PLAY {url} RTSP/1.0\r\nCSeq: {cseq}\r\nSession: {session}\r\n\r\n")
        play, _, _ = read_response(sock)
        got = 0
        if play == 200:
            deadline = time.time() + 2
            while time.time() < deadline:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                got += len(chunk)
        with open(os.path.join(directory, f"play{round}.json"), "w") as out:
            json.dump({"status": play, "bytes": got}, out)
        round += 1
    sock.close()


def sdp(port):
    sock = connect(port)
    send(sock, f"DESCRIBE rtsp://127.0.0.1:{port}/live RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n\r\n")
    _, _, body = read_response(sock)
    print(body.decode("latin-1"))


if __name__ == "__main__":
    if sys.argv[1] == "sdp":
        sdp(int(sys.argv[2]))
    elif sys.argv[1] == "pending":
        pending(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "request":
        request(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "burst":
        burst(int(sys.argv[2]), float(sys.argv[3]))
    else:
        stall(int(sys.argv[2]), float(sys.argv[3]))
