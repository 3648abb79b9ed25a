#!/usr/bin/env python3
"""Home Assistant's ONVIF event path (homeassistant/components/onvif/event.py) run with its
library, onvif-zeep-async: waits for the device to answer, creates a PullPoint subscription
through the library's PullPointManager, pulls as Home Assistant does and prints one JSON object
with every notification message seen (topic, operation, value, seconds since the subscription)
and, after a motion end, the device's onair_motion lines of /metrics.

  onvif_events.py --host 127.0.0.1 --port 8080 --user onair --password T --seconds 30

Used by ONVIFMotionEventsTests; failures are printed, not raised.
"""
import argparse
import asyncio
import datetime as dt
import json
import sys
import time
import urllib.request

from onvif import ONVIFCamera
from zeep.exceptions import Fault


def parse(message):
    """Topic, operation and value of one NotificationMessage, as Home Assistant's parsers read it."""
    topic = message.Topic._value_1
    body = message.Message._value_1
    data = body.Data.SimpleItem[0]
    sources = [(item.Name, item.Value) for item in body.Source.SimpleItem]
    return {"topic": topic, "operation": body.PropertyOperation, "name": data.Name, "value": data.Value,
            "source": sources}


async def run(args):
    out = {"messages": []}
    camera = ONVIFCamera(args.host, args.port, args.user, args.password)
    deadline = time.monotonic() + args.wait
    while True:
        try:
            await camera.update_xaddrs()
            break
        except Exception as error:  # the server is not up yet
            if time.monotonic() > deadline:
                out["error"] = f"never answered: {type(error).__name__}: {error}"
                return out
            await asyncio.sleep(0.2)
    try:
        out["events_xaddr"] = camera.xaddrs.get("http://www.onvif.org/ver10/events/wsdl")
        events = await camera.create_events_service()
        capabilities = await events.GetServiceCapabilities()
        out["pullpoint_support"] = bool(capabilities.WSPullPointSupport)
        manager = await camera.create_pullpoint_manager(dt.timedelta(seconds=60), lambda: None)
        start = time.monotonic()
        out["subscribed_at"] = time.time()
        service = manager.get_service()
        saw_end = False
        while time.monotonic() - start < args.seconds and not saw_end:
            result = await service.PullMessages({"MessageLimit": 100, "Timeout": dt.timedelta(seconds=2)})
            for message in result.NotificationMessage or []:
                entry = parse(message)
                entry["at"] = round(time.monotonic() - start, 3)
                out["messages"].append(entry)
                if entry["topic"].endswith("CellMotionDetector/Motion") and entry["operation"] == "Changed" \
                        and entry["value"] == "false":
                    saw_end = True
        with urllib.request.urlopen(f"http://{args.host}:{args.port}/metrics", timeout=5) as response:
            out["metrics"] = [line for line in response.read().decode().splitlines() if line.startswith("onair_motion")]
        await manager.shutdown()
    except Fault as error:
        out["fault"] = str(getattr(error, "message", error))
    except Exception as error:
        out["error"] = f"{type(error).__name__}: {error}"
    finally:
        await camera.close()
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--wait", type=float, default=20, help="seconds to wait for the device to answer")
    parser.add_argument("--seconds", type=float, default=30, help="seconds to pull for at most")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args))))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
