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
  rtsp_clients.py flood PORT SECONDS  a DESCRIBE whose header lines never end ("a:b,b,…"), sent
                                      as fast as the server takes them; prints JSON (cut or not,
                                      when, bytes sent)
  rtsp_clients.py trickle PORT SECONDS INTERVAL
                                      a DESCRIBE sent one byte every INTERVAL s; prints JSON
  rtsp_clients.py idle PORT SECONDS   an OPTIONS, then nothing; prints JSON (its status, cut or not,
                                      when, from before the OPTIONS)
  rtsp_clients.py timed PORT KIND DELAY
                                      one request of KIND after DELAY s; prints JSON (status, seconds to the answer)
  rtsp_clients.py data-flood PORT SECONDS
                                      DESCRIBE/SETUP (interleaved TCP), then RTCP-channel frames of
                                      60 kB as fast as they are taken; prints JSON (cut or not, when, bytes sent)
  rtsp_clients.py burst PORT SECONDS  DESCRIBE/SETUP (interleaved TCP)/PLAY, then reads SECONDS;
                                      prints JSON: video RTP packets, seconds from PLAY's answer to
                                      the first, and how far their media time (RTP timestamps) ran
                                      ahead of their arrival at most (the keyframe cache sent at
                                      once: its age; paced by the clock: about 0)
  rtsp_clients.py auth PORT PASSWORD…  a DESCRIBE without credentials, then one with Digest (its
                                      nonce, user "onair", hashlib's MD5) and one with Basic for each
                                      PASSWORD, and a Digest one with a nonce the server never gave;
                                      prints JSON (the first status and its WWW-Authenticate values,
                                      then each status by password)
  rtsp_clients.py hold PORT COUNT SECONDS
                                      COUNT connections opened one after another, each given 0.5 s
                                      to be closed; after SECONDS an OPTIONS on each left; prints JSON
"""
import base64
import hashlib
import os
import json
import select
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


def timed(port, kind, delay):
    time.sleep(delay)
    start = time.time()
    status = ask(port, kind)
    print(json.dumps({"status": status, "seconds": round(time.time() - start, 2)}))


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


def closed_by_server(sock, timeout):
    """Whether the server closed `sock` (end of stream or reset) within `timeout` seconds."""
    ready, _, _ = select.select([sock], [], [], timeout)
    if not ready:
        return False
    try:
        return sock.recv(65536, socket.MSG_PEEK) == b""
    except OSError:
        return True


def flood(port, seconds):
    sock = connect(port)
    sock.setblocking(False)
    head = f"DESCRIBE rtsp://127.0.0.1:{port}/live RTSP/1.0\r\nCSeq: 1\r\n".encode()
    # Lines under GStreamer's 4 KiB line buffer, each value split at its commas: the most header
    # entries a byte sent can make.
    chunk = (b"a:" + b"b," * 1000 + b"b\r\n") * 16
    pending, sent, start, cut = head, 0, time.time(), False
    while time.time() - start < seconds:
        readable, writable, _ = select.select([sock], [sock], [], 0.5)
        if readable:
            try:
                if sock.recv(65536) == b"":
                    cut = True
                    break
            except OSError:
                cut = True
                break
        if writable:
            try:
                count = sock.send(pending)
            except BlockingIOError:
                continue
            except OSError:
                cut = True
                break
            sent += count
            pending = pending[count:] or chunk
    print(json.dumps({"cut": cut, "seconds": round(time.time() - start, 2), "sent": sent}))


def data_flood(port, seconds):
    sock = connect(port)
    status, session = setup(sock, f"rtsp://127.0.0.1:{port}/live")
    frame = b"$\x01" + (60000).to_bytes(2, "big") + b"\x80" * 60000
    sent, start, cut = 0, time.time(), False
    while time.time() - start < seconds:
        try:
            sent += sock.send(frame)
        except socket.timeout:
            continue
        except OSError:
            cut = True
            break
        if closed_by_server(sock, 0):
            cut = True
            break
    print(json.dumps({"describe": status, "cut": cut, "seconds": round(time.time() - start, 2), "sent": sent}))


def trickle(port, seconds, interval):
    sock = connect(port)
    text = f"DESCRIBE rtsp://127.0.0.1:{port}/live RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n" + "X" * 4000
    start, cut, index = time.time(), False, 0
    while time.time() - start < seconds and index < len(text):
        try:
            send(sock, text[index])
        except OSError:
            cut = True
            break
        index += 1
        if closed_by_server(sock, interval):
            cut = True
            break
    print(json.dumps({"cut": cut, "seconds": round(time.time() - start, 2), "sent": index}))


def idle(port, seconds):
    sock = connect(port)
    # Timed from before the request: the server's idle time starts when it answers, later.
    start = time.time()
    send(sock, f"OPTIONS rtsp://127.0.0.1:{port}/live RTSP/1.0\r\nCSeq: 1\r\n\r\n")
    status, _, _ = read_response(sock)
    cut = closed_by_server(sock, seconds - (time.time() - start))
    print(json.dumps({"options": status, "cut": cut, "seconds": round(time.time() - start, 2)}))


def hold(port, count, seconds):
    socks, closed_at_once = [], []
    for index in range(count):
        sock = connect(port)
        socks.append(sock)
        if closed_by_server(sock, 0.5):
            closed_at_once.append(index)
    time.sleep(seconds)
    answered = []
    for index, sock in enumerate(socks):
        if index in closed_at_once:
            continue
        try:
            send(sock, f"OPTIONS rtsp://127.0.0.1:{port}/live RTSP/1.0\r\nCSeq: 1\r\n\r\n")
            status, _, _ = read_response(sock)
        except OSError:
            status = 0
        answered.append(status)
    print(json.dumps({"closed_at_once": closed_at_once, "answered": answered}))


def auth(port, passwords):
    url = f"rtsp://127.0.0.1:{port}/live"

    def describe(authorization=None, every=None):
        sock = connect(port)
        try:
            extra = f"Authorization: {authorization}\r\n" if authorization else ""
            send(sock, f"DESCRIBE {url} RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n{extra}\r\n")
            return read_response(sock, every)[0]
        finally:
            sock.close()

    def md5(text):
        return hashlib.md5(text.encode()).hexdigest()

    def digest(password, nonce):
        response = md5(f"{md5(f'onair:onair:{password}')}:{nonce}:{md5(f'DESCRIBE:{url}')}")
        return f'Digest username="onair", realm="onair", nonce="{nonce}", uri="{url}", response="{response}"'

    every = []
    status = describe(every=every)
    challenges = [value for name, value in every if name == "www-authenticate"]
    nonce = next((c.split('nonce="')[1].split('"')[0] for c in challenges if 'nonce="' in c), "")
    print(json.dumps({
        "status": status, "challenges": challenges,
        "digest": {p: describe(digest(p, nonce)) for p in passwords},
        "basic": {p: describe("Basic " + base64.b64encode(f"onair:{p}".encode()).decode()) for p in passwords},
        "unknown_nonce": {p: describe(digest(p, "0" * 32)) for p in passwords},
    }))


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
    elif sys.argv[1] == "timed":
        timed(int(sys.argv[2]), sys.argv[3], float(sys.argv[4]))
    elif sys.argv[1] == "data-flood":
        data_flood(int(sys.argv[2]), float(sys.argv[3]))
    elif sys.argv[1] == "flood":
        flood(int(sys.argv[2]), float(sys.argv[3]))
    elif sys.argv[1] == "trickle":
        trickle(int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]))
    elif sys.argv[1] == "idle":
        idle(int(sys.argv[2]), float(sys.argv[3]))
    elif sys.argv[1] == "burst":
        burst(int(sys.argv[2]), float(sys.argv[3]))
    elif sys.argv[1] == "auth":
        auth(int(sys.argv[2]), sys.argv[3:])
    elif sys.argv[1] == "hold":
        hold(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]))
    else:
        stall(int(sys.argv[2]), float(sys.argv[3]))
