#!/usr/bin/env python3
"""Hostile and slow HTTP clients for `onair serve` tests, on loopback only.

  hostile PORT        40 half-sent requests (one byte a second, from 127.0.0.2..), a 200 kB header,
                      non-HTTP bytes, path traversal (/../, %2e%2e), then prints one JSON object:
                      what each got (status code or "closed"), and how long the slow ones lasted.
  throttle PORT PATH RATE SECONDS
                      reads PATH at RATE bytes/s (tiny receive buffer) for SECONDS or until the
                      server closes; prints JSON: bytes read, seconds until closed (or null).
Every loop is bounded in count and time.
"""
import json
import socket
import sys
import threading
import time


def connect(port, source="127.0.0.1", rcvbuf=None):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((source, 0))
    sock.settimeout(20)
    sock.connect(("127.0.0.1", port))
    return sock


def status_of(sock):
    """The status code of the response, or 'closed' when the server closed without one."""
    data = b""
    try:
        while b"\r\n" not in data and len(data) < 4096:
            part = sock.recv(4096)
            if not part:
                break
            data += part
    except (ConnectionResetError, socket.timeout, BrokenPipeError):
        pass
    if data.startswith(b"HTTP/1."):
        return int(data.split(b" ")[1])
    return "closed"


def half_sent(port, index, results):
    start = time.monotonic()
    request = b"GET /live.ts HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 60
    sock = connect(port, source="127.0.0.%d" % (2 + index % 200))
    outcome = "held"
    try:
        for byte in request[:40]:  # at most 40 s
            sock.send(bytes([byte]))
            time.sleep(1)
    except (BrokenPipeError, ConnectionResetError, OSError):
        outcome = "cut"
    if outcome == "held":
        sock.settimeout(1)
        try:
            outcome = "cut" if sock.recv(1) == b"" else "answered"
        except socket.timeout:
            outcome = "held"
        except (ConnectionResetError, OSError):
            outcome = "cut"
    results[index] = {"outcome": outcome, "seconds": round(time.monotonic() - start, 2)}
    sock.close()


def one_shot(port, payload):
    sock = connect(port)
    try:
        sock.sendall(payload)
    except (BrokenPipeError, ConnectionResetError):
        pass
    result = status_of(sock)
    sock.close()
    return result


def hostile(port):
    results = {}
    slow = [None] * 40
    threads = [threading.Thread(target=half_sent, args=(port, i, slow)) for i in range(40)]
    for thread in threads:
        thread.start()
    time.sleep(1)
    results["big_header"] = one_shot(port, b"GET /live.ts HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 200_000 + b"\r\n\r\n")
    results["non_http"] = one_shot(port, bytes(range(256)) * 4 + b"\r\n\r\n")
    results["dotdot"] = one_shot(port, b"GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n")
    results["encoded_dotdot"] = one_shot(port, b"GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n")
    results["unknown"] = one_shot(port, b"GET /etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n")
    results["post"] = one_shot(port, b"POST /live.ts HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
    for thread in threads:
        thread.join(60)
    results["half_sent"] = slow
    print(json.dumps(results), flush=True)


def throttle(port, path, rate, seconds):
    sock = connect(port, rcvbuf=4096)
    sock.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path).encode())
    start = time.monotonic()
    received = 0
    closed_after = None
    first = b""
    sock.settimeout(2)
    while time.monotonic() - start < seconds:
        try:
            part = sock.recv(1024)
        except socket.timeout:
            continue
        except (ConnectionResetError, OSError):
            part = b""
        if not part:
            closed_after = round(time.monotonic() - start, 2)
            break
        if not first:
            first = part.split(b"\r\n")[0]
        received += len(part)
        time.sleep(len(part) / rate)
    sock.close()
    print(json.dumps({"status": first.decode("latin-1"), "bytes": received, "closed_after": closed_after}), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "hostile":
        hostile(int(sys.argv[2]))
    else:
        throttle(int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), float(sys.argv[5]))
