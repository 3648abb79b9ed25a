#!/usr/bin/env python3
"""Finds ONVIF devices with the PyPI package wsdiscovery (as ONVIF tools do: a Probe for
dn:NetworkVideoTransmitter on 239.255.255.250:3702). Prints JSON lines: {"ready": true} once
listening; after `--hellos` Hello messages were heard (or `--wait` seconds), every service a
Probe found with its endpoint, types, scopes and XAddrs; then, after as many Bye messages (or
`--listen` seconds), the Hello and Bye messages heard.

  wsdiscovery_probe.py --hellos 2 --timeout 3 --listen 20

Used by ONVIFDiscoveryTests inside a network namespace of the test's own.
"""
import argparse
import json
import sys
import time

from wsdiscovery import QName
from wsdiscovery.discovery import ThreadedWSDiscovery


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=3)
    parser.add_argument("--hellos", type=int, default=0, help="Hello messages to wait for before probing")
    parser.add_argument("--wait", type=float, default=20, help="seconds to wait for them at most")
    parser.add_argument("--listen", type=float, default=0, help="then listen this long at most for as many Bye messages")
    args = parser.parse_args()
    heard = []
    discovery = ThreadedWSDiscovery()
    discovery.start()
    try:
        discovery.setRemoteServiceHelloCallback(lambda service: heard.append({"hello": service.getEPR()}))
        discovery.setRemoteServiceByeCallback(lambda epr: heard.append({"bye": epr}))
    except AttributeError:
        pass
    print(json.dumps({"ready": True}))
    sys.stdout.flush()
    deadline = time.monotonic() + args.wait
    while sum("hello" in entry for entry in heard) < args.hellos and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        kind = QName("http://www.onvif.org/ver10/network/wsdl", "NetworkVideoTransmitter", "dn")
        services = discovery.searchServices(types=[kind], timeout=args.timeout)
        found = [{"epr": s.getEPR(), "types": sorted(f"{t.getNamespace()}#{t.getLocalname()}" for t in s.getTypes()),
                  "scopes": sorted(str(scope.getValue()) for scope in s.getScopes()), "xaddrs": s.getXAddrs()}
                 for s in services]
        print(json.dumps({"services": found, "started": time.time()}))
        sys.stdout.flush()
        deadline = time.monotonic() + args.listen
        while sum("bye" in entry for entry in heard) < args.hellos and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        discovery.stop()
    print(json.dumps({"heard": heard}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
