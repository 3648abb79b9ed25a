#!/usr/bin/env python3
"""A one-connection TCP relay on loopback that forwards at a limited rate for a while.

Accepts one connection on 127.0.0.1:LISTEN (default 0: a port the kernel picks), connects to
127.0.0.1:TO and copies bytes from the first to the second: unlimited for FREE seconds after the
accept, at most RATE bits/s for THROTTLE seconds (a token bucket with a 100 ms burst), then
unlimited again. Its receive buffer is small, so the sender feels the limit at once instead of
filling megabytes of kernel buffer. Logs "listening <unix time> <port>" once bound, then each
phase change as "<phase> <unix time>", on stderr. Loopback only.
"""
import argparse
import socket
import sys
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--listen", type=int, default=0)
    parser.add_argument("--to", type=int, required=True)
    parser.add_argument("--rate", type=float, required=True, help="bits per second while throttled")
    parser.add_argument("--free", type=float, default=4.0)
    parser.add_argument("--throttle", type=float, default=18.0)
    args = parser.parse_args()

    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
    server.bind(("127.0.0.1", args.listen))
    server.listen(1)
    print("listening %f %d" % (time.time(), server.getsockname()[1]), file=sys.stderr, flush=True)
    upstream, _ = server.accept()
    downstream = None
    deadline = time.time() + 10
    while downstream is None:
        try:
            downstream = socket.create_connection(("127.0.0.1", args.to))
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.05)
    accepted = time.monotonic()
    print("free %f" % time.time(), file=sys.stderr, flush=True)
    phase = "free"
    throttle_start = accepted + args.free
    throttle_end = throttle_start + args.throttle
    sent_while_throttled = 0
    while True:
        now = time.monotonic()
        if throttle_start <= now < throttle_end:
            if phase != "throttle":
                phase = "throttle"
                print("throttle %f" % time.time(), file=sys.stderr, flush=True)
            # A token bucket holding at most 100 ms of the rate: a relay starved of CPU for a
            # while (a loaded machine) does not burst the backlog out afterwards, so the link
            # the sender sees is the same from run to run.
            burst = max(4096, int(args.rate / 8 * 0.1))
            sent_while_throttled = max(sent_while_throttled, int(args.rate / 8 * (now - throttle_start)) - burst)
            budget = int(args.rate / 8 * (now - throttle_start)) - sent_while_throttled
            if budget < 188:
                time.sleep(0.005)
                continue
            data = upstream.recv(min(budget, 4096))
            sent_while_throttled += len(data)
        else:
            if now >= throttle_end and phase != "lifted":
                phase = "lifted"
                print("lifted %f" % time.time(), file=sys.stderr, flush=True)
            data = upstream.recv(65536)
        if not data:
            break
        try:
            downstream.sendall(data)
        except OSError:
            break
    downstream.close()
    upstream.close()
    print("end %f" % time.time(), file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
