#!/usr/bin/env bash
# Writes seed datagrams for FuzzWSDiscovery into directory $1: Probes and a Resolve as ONVIF clients send them.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
head='<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:a="http://schemas.xmlsoap.org/ws/2004/08/addressing" xmlns:d="http://schemas.xmlsoap.org/ws/2005/04/discovery" xmlns:dn="http://www.onvif.org/ver10/network/wsdl"><s:Header><a:MessageID>uuid:5c0e3e4a-1f6b-4d2c-9a8e-7b6f5e4d3c2b</a:MessageID><a:To>urn:schemas-xmlsoap-org:ws:2005:04:discovery</a:To>'
printf '%s' "$head<a:Action>http://schemas.xmlsoap.org/ws/2005/04/discovery/Probe</a:Action></s:Header><s:Body><d:Probe><d:Types>dn:NetworkVideoTransmitter</d:Types></d:Probe></s:Body></s:Envelope>" > "$out/probe"
printf '%s' "$head<a:Action>http://schemas.xmlsoap.org/ws/2005/04/discovery/Probe</a:Action></s:Header><s:Body><d:Probe><d:Scopes MatchBy=\"http://schemas.xmlsoap.org/ws/2005/04/discovery/rfc3986\">onvif://www.onvif.org/Profile</d:Scopes></d:Probe></s:Body></s:Envelope>" > "$out/probe-scopes"
printf '%s' "$head<a:Action>http://schemas.xmlsoap.org/ws/2005/04/discovery/Resolve</a:Action></s:Header><s:Body><d:Resolve><a:EndpointReference><a:Address>urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0</a:Address></a:EndpointReference></d:Resolve></s:Body></s:Envelope>" > "$out/resolve"
