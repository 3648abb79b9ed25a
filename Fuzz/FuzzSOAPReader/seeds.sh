#!/usr/bin/env bash
# Writes seed SOAP envelopes for FuzzSOAPReader into directory $1: ONVIF requests as clients send them.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
env='<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"'
cat > "$out/profiles" <<XML
<?xml version="1.0" encoding="utf-8"?>
$env xmlns:trt="http://www.onvif.org/ver10/media/wsdl"><s:Body><trt:GetProfiles/></s:Body></s:Envelope>
XML
cat > "$out/stream-uri" <<XML
$env><s:Header><wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
 xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"><wsse:UsernameToken>
<wsse:Username>onair</wsse:Username><wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest">
Zm9vYmFy</wsse:Password><wsse:Nonce>bm9uY2U=</wsse:Nonce><wsu:Created>2026-12-04T18:00:00Z</wsu:Created>
</wsse:UsernameToken></wsse:Security></s:Header><s:Body><GetStreamUri xmlns="http://www.onvif.org/ver10/media/wsdl">
<StreamSetup><Stream xmlns="http://www.onvif.org/ver10/schema">RTP-Unicast</Stream></StreamSetup>
<ProfileToken>main</ProfileToken></GetStreamUri></s:Body></s:Envelope>
XML
printf '%s' '<a:Envelope xmlns:a="http://schemas.xmlsoap.org/soap/envelope/"><!-- c --><a:Body><![CDATA[x&y]]>&lt;&#x41;&#66;</a:Body></a:Envelope>' > "$out/entities"
printf '%s' '<a><b><c><d/></c></b></a>' > "$out/nested"
