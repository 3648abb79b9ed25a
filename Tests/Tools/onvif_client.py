#!/usr/bin/env python3
"""Home Assistant's ONVIF setup sequence (homeassistant/components/onvif/device.py) run with its
library, onvif-zeep-async, against a device; prints one JSON object with what each step gave.

  onvif_client.py --host 127.0.0.1 --port 8080 --user onair --password T
  onvif_client.py ... --expect-refusal      # a wrong password: prints the fault HA sees
  onvif_client.py ... --replay              # one hand-made digest request, then replayed from 127.0.0.2

Used by ONVIFHomeAssistantTests; every step's failure is printed, not raised.
"""
import argparse
import asyncio
import base64
import datetime as dt
import hashlib
import http.client
import json
import os
import sys

import httpx
from onvif import ONVIFCamera
from zeep.exceptions import Fault


def fault_text(error):
    subcodes = [str(code) for code in (getattr(error, "subcodes", None) or [])]
    return {"message": str(getattr(error, "message", error)), "subcodes": subcodes}


async def setup_sequence(args):
    out = {}
    camera = ONVIFCamera(args.host, args.port, args.user, args.password)
    try:
        await camera.update_xaddrs()
        out["xaddrs"] = sorted(camera.xaddrs.values())
        device = await camera.create_devicemgmt_service()
        now = await device.GetSystemDateAndTime()
        utc = now.UTCDateTime
        device_time = dt.datetime(utc.Date.Year, utc.Date.Month, utc.Date.Day, utc.Time.Hour, utc.Time.Minute,
                                  utc.Time.Second, tzinfo=dt.timezone.utc)
        out["clock_skew_s"] = abs((device_time - dt.datetime.now(dt.timezone.utc)).total_seconds())
        info = await device.GetDeviceInformation()
        out["device"] = {"manufacturer": info.Manufacturer, "model": info.Model, "serial": info.SerialNumber}
        try:
            interfaces = await device.GetNetworkInterfaces()
            out["mac"] = next((i.Info.HwAddress for i in interfaces if i.Enabled), None)
        except Fault as error:
            out["mac_fault"] = fault_text(error)
        capabilities = await device.GetCapabilities({"Category": "All"})
        out["media_xaddr"] = capabilities.Media.XAddr
        media = await camera.create_media_service()
        media_capabilities = await media.GetServiceCapabilities()
        out["snapshot_capability"] = bool(media_capabilities.SnapshotUri)
        profiles = []
        for profile in await media.GetProfiles():
            encoder = profile.VideoEncoderConfiguration
            if encoder is None or encoder.Encoding != "H264":
                continue
            request = media.create_type("GetStreamUri")
            request.ProfileToken = profile.token
            request.StreamSetup = {"Stream": "RTP-Unicast", "Transport": {"Protocol": "RTSP"}}
            uri = await media.GetStreamUri(request)
            snapshot = await media.GetSnapshotUri({"ProfileToken": profile.token})
            profiles.append({
                "token": profile.token, "encoding": encoder.Encoding, "width": encoder.Resolution.Width,
                "height": encoder.Resolution.Height, "fps": encoder.RateControl.FrameRateLimit,
                "bitrate_kbps": encoder.RateControl.BitrateLimit, "gop": encoder.H264.GovLength,
                "audio": profile.AudioEncoderConfiguration.Encoding if profile.AudioEncoderConfiguration else None,
                "stream_uri": uri.Uri, "snapshot_uri": snapshot.Uri,
            })
        out["profiles"] = profiles
        try:
            await device.SystemReboot()
            out["reboot"] = "answered"
        except Fault as error:
            out["reboot_fault"] = fault_text(error)
        # Home Assistant fetches the snapshot with HTTP Digest (httpx), falling back to Basic.
        if profiles:
            async with httpx.AsyncClient() as client:
                response = await client.get(profiles[0]["snapshot_uri"], auth=httpx.DigestAuth(args.user, args.password))
                out["snapshot"] = {"status": response.status_code, "type": response.headers.get("content-type"),
                                   "jpeg": response.content[:3] == b"\xff\xd8\xff", "bytes": len(response.content)}
    except Fault as error:
        out["fault"] = fault_text(error)
    except Exception as error:
        out["error"] = f"{type(error).__name__}: {error}"
    finally:
        await camera.close()
    return out


def replay(args):
    """One GetProfiles with a PasswordDigest token, sent twice byte for byte: then again from
    another address (127.0.0.2: the device admits a token again only from where it first came,
    within a second, as libonvif's requests in one millisecond share one)."""
    nonce = os.urandom(16)
    created = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    digest = base64.b64encode(hashlib.sha1(nonce + created.encode() + args.password.encode()).digest()).decode()
    body = f"""<?xml version="1.0"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Header>
<wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
 xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"><wsse:UsernameToken>
<wsse:Username>{args.user}</wsse:Username>
<wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest">{digest}</wsse:Password>
<wsse:Nonce>{base64.b64encode(nonce).decode()}</wsse:Nonce><wsu:Created>{created}</wsu:Created></wsse:UsernameToken></wsse:Security>
</s:Header><s:Body><GetProfiles xmlns="http://www.onvif.org/ver10/media/wsdl"/></s:Body></s:Envelope>""".encode()
    statuses = []
    for source in [None, ("127.0.0.2", 0)]:
        connection = http.client.HTTPConnection(args.host, args.port, timeout=10, source_address=source)
        connection.request("POST", "/onvif/media_service", body=body, headers={"Content-Type": "application/soap+xml"})
        response = connection.getresponse()
        text = response.read().decode()
        statuses.append({"status": response.status, "body": text if response.status != 200 else text[-200:]})
        connection.close()
    return {"replay": statuses}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--replay", action="store_true")
    args = parser.parse_args()
    result = replay(args) if args.replay else asyncio.run(setup_sequence(args))
    print(json.dumps(result))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
