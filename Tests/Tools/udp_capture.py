#!/usr/bin/env python3
"""Writes every datagram arriving on 127.0.0.1:PORT to FILE, byte for byte, until none has come
for IDLE seconds (after the first). PORT 0 picks a free port. Prints "listening 127.0.0.1:PORT"
(the port bound) on stderr once bound. Loopback only.

    udp_capture.py --port PORT --out FILE [--idle 2]
"""
import argparse
import socket
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--idle", type=float, default=2.0)
    args = parser.parse_args()
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 * 1024 * 1024)
    sock.bind(("127.0.0.1", args.port))
    print("listening 127.0.0.1:%d" % sock.getsockname()[1], file=sys.stderr, flush=True)
    with open(args.out, "wb") as out:
        sock.settimeout(None)
        while True:
            data = sock.recv(65536)
            out.write(data)
            sock.settimeout(args.idle)
            try:
                while True:
                    out.write(sock.recv(65536))
            except socket.timeout:
                break
    print("done", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
