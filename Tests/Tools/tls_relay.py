#!/usr/bin/env python3
"""A TLS front for a plain TCP server on loopback, as RTMPS services put in front of RTMP.

    tls_relay.py --listen PORT --to PORT --cert CERT.pem --key KEY.pem

Accepts TLS connections on 127.0.0.1:PORT (0: a free port), connects each to 127.0.0.1:TO and
copies bytes both ways. Prints "listening 127.0.0.1:PORT" (the port bound) on stderr once it
accepts connections, and "handshake failed: REASON"
for a client that gives up during the handshake (a client that refuses the certificate).
"""
import argparse
import socket
import ssl
import sys
import threading


def pump(source, target):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
    except OSError:
        pass
    finally:
        for sock in (source, target):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(client, context, port):
    try:
        secure = context.wrap_socket(client, server_side=True)
    except (ssl.SSLError, OSError) as error:
        print(f"handshake failed: {error}", file=sys.stderr, flush=True)
        client.close()
        return
    upstream = socket.create_connection(("127.0.0.1", port))
    upstream.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    threading.Thread(target=pump, args=(secure, upstream), daemon=True).start()
    pump(upstream, secure)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--listen", type=int, required=True)
    parser.add_argument("--to", type=int, required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    args = parser.parse_args()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", args.listen))
    server.listen(8)
    print("listening 127.0.0.1:%d" % server.getsockname()[1], file=sys.stderr, flush=True)
    while True:
        client, _ = server.accept()
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=serve, args=(client, context, args.to), daemon=True).start()


if __name__ == "__main__":
    main()
