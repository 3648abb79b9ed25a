// Script module OnAirMP4: splits a byte stream into whole top-level MP4 boxes, reads the
// RFC 6381 codec strings (and picture size) from an init segment's avcC and esds, and leaves
// tracks out of an init segment and its fragments (the muted page plays video only, which the
// browser starts and keeps closer to the live edge). Every read is bounds-checked; malformed
// input throws an Error with a message, never reads past the data.
const OnAirMP4 = (() => {
  const maximumBoxSize = 64 * 1024 * 1024;

  function u16(b, o) { return (b[o] << 8) | b[o + 1]; }
  function u32(b, o) { return b[o] * 0x1000000 + ((b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]); }
  function fourcc(b, o) { return String.fromCharCode(b[o], b[o + 1], b[o + 2], b[o + 3]); }

  // The box header at o, inside [o, end): {type, start, body, end}; null when the header is not
  // all there yet. Throws on sizes no box can have.
  function header(b, o, end) {
    if (end - o < 8) return null;
    let size = u32(b, o), headerSize = 8;
    const type = fourcc(b, o + 4);
    if (size === 1) {
      if (end - o < 16) return null;
      const high = u32(b, o + 8);
      if (high !== 0) throw new Error('MP4 box "' + type + '" is larger than 4 GB');
      size = u32(b, o + 12);
      headerSize = 16;
    } else if (size === 0) {
      throw new Error('MP4 box "' + type + '" has no size, which a live stream cannot have');
    }
    if (size < headerSize) throw new Error('MP4 box "' + type + '" has an impossible size ' + size);
    if (size > maximumBoxSize) throw new Error('MP4 box "' + type + '" is too large (' + size + ' bytes)');
    return { type, start: o, body: o + headerSize, end: o + size };
  }

  // The child boxes of [start, end), all of which must fit.
  function children(b, start, end) {
    const boxes = [];
    let o = start;
    while (o < end) {
      const h = header(b, o, end);
      if (h === null || h.end > end) throw new Error('truncated MP4 box inside the init segment');
      boxes.push(h);
      o = h.end;
    }
    return boxes;
  }

  function child(b, box, type) {
    return children(b, box.body, box.end).find((c) => c.type === type) || null;
  }

  function hex2(n) { return (n < 16 ? '0' : '') + n.toString(16); }

  // Splits pushed chunks into whole top-level boxes.
  class BoxSplitter {
    constructor() { this.buffer = new Uint8Array(256 * 1024); this.start = 0; this.end = 0; }

    // Appends a chunk; returns the boxes it completed, each {type, bytes} (bytes is a copy).
    push(chunk) {
      this.reserve(chunk.length);
      this.buffer.set(chunk, this.end);
      this.end += chunk.length;
      const boxes = [];
      for (;;) {
        const h = header(this.buffer, this.start, this.end);
        if (h === null || h.end > this.end) break;
        boxes.push({ type: h.type, bytes: this.buffer.slice(h.start, h.end) });
        this.start = h.end;
      }
      if (this.start === this.end) { this.start = 0; this.end = 0; }
      return boxes;
    }

    // Bytes held that do not yet form a whole box.
    get pending() { return this.end - this.start; }

    reserve(count) {
      if (this.end + count <= this.buffer.length) return;
      const held = this.end - this.start;
      let size = this.buffer.length;
      while (size < held + count) size *= 2;
      if (size > 2 * maximumBoxSize) throw new Error('MP4 stream buffer overflow');
      const next = size === this.buffer.length ? this.buffer : new Uint8Array(size);
      if (next === this.buffer) this.buffer.copyWithin(0, this.start, this.end);
      else next.set(this.buffer.subarray(this.start, this.end), 0);
      this.buffer = next;
      this.start = 0;
      this.end = held;
    }
  }

  // The codec string of an avc1/avc3 sample entry (from its avcC) and the picture size.
  function videoEntry(b, entry) {
    if (entry.end - entry.body < 78) throw new Error('truncated video sample entry');
    const width = u16(b, entry.body + 24), height = u16(b, entry.body + 26);
    const avcC = children(b, entry.body + 78, entry.end).find((c) => c.type === 'avcC');
    if (!avcC || avcC.end - avcC.body < 4) throw new Error('H.264 sample entry without an avcC box');
    const o = avcC.body;
    return { kind: 'video', codec: entry.type + '.' + hex2(b[o + 1]) + hex2(b[o + 2]) + hex2(b[o + 3]), width, height };
  }

  // A descriptor's tag, body start and end inside esds, or null when it does not fit.
  function descriptor(b, o, end) {
    if (o + 2 > end) return null;
    const tag = b[o];
    let length = 0, p = o + 1;
    for (let i = 0; i < 4; i++) {
      if (p >= end) return null;
      const byte = b[p++];
      length = length * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    if (p + length > end) return null;
    return { tag, body: p, end: p + length };
  }

  // The codec string of an mp4a sample entry, from the esds's DecoderConfigDescriptor.
  function audioEntry(b, entry) {
    if (entry.end - entry.body < 28) throw new Error('truncated audio sample entry');
    const version = u16(b, entry.body + 8);
    const skip = version === 1 ? 16 : version === 2 ? 36 : 0;
    if (entry.end - entry.body < 28 + skip) throw new Error('truncated audio sample entry');
    const channels = u16(b, entry.body + 16), sampleRate = u16(b, entry.body + 24);
    const esds = children(b, entry.body + 28 + skip, entry.end).find((c) => c.type === 'esds');
    if (!esds) throw new Error('AAC sample entry without an esds box');
    const es = descriptor(b, esds.body + 4, esds.end);
    if (!es || es.tag !== 3 || es.end - es.body < 3) throw new Error('esds without an ES descriptor');
    const flags = b[es.body + 2];
    let o = es.body + 3;
    if (flags & 0x80) o += 2;
    if (flags & 0x40) { if (o >= es.end) throw new Error('truncated ES descriptor'); o += 1 + b[o]; }
    if (flags & 0x20) o += 2;
    const config = descriptor(b, o, es.end);
    if (!config || config.tag !== 4 || config.end - config.body < 13) throw new Error('esds without a decoder configuration');
    const objectType = b[config.body];
    let codec = 'mp4a.' + objectType.toString(16);
    const specific = descriptor(b, config.body + 13, config.end);
    if (specific && specific.tag === 5 && specific.end > specific.body) {
      let audioObjectType = b[specific.body] >> 3;
      if (audioObjectType === 31) {
        if (specific.end - specific.body < 2) throw new Error('truncated AudioSpecificConfig');
        audioObjectType = 32 + (((b[specific.body] & 7) << 3) | (b[specific.body + 1] >> 5));
      }
      codec += '.' + audioObjectType;
    }
    return { kind: 'audio', codec, channels, sampleRate };
  }

  // Reads an init segment (the bytes of its moov box): {codecs: [...], mimeType, video, audio}.
  function describeInit(moovBytes) {
    const b = moovBytes;
    const moov = header(b, 0, b.length);
    if (!moov || moov.type !== 'moov' || moov.end > b.length) throw new Error('the init segment has no moov box');
    const tracks = [];
    for (const trak of children(b, moov.body, moov.end).filter((c) => c.type === 'trak')) {
      const mdia = child(b, trak, 'mdia'), minf = mdia && child(b, mdia, 'minf');
      const stbl = minf && child(b, minf, 'stbl'), stsd = stbl && child(b, stbl, 'stsd');
      if (!stsd || stsd.end - stsd.body < 8) continue;
      const entries = children(b, stsd.body + 8, stsd.end);
      if (entries.length === 0) continue;
      const entry = entries[0];
      let track;
      if (entry.type === 'avc1' || entry.type === 'avc3') track = videoEntry(b, entry);
      else if (entry.type === 'mp4a') track = audioEntry(b, entry);
      else if (/^[0-9A-Za-z]{4}$/.test(entry.type)) track = { kind: 'other', codec: entry.type };
      else throw new Error('a track has an unreadable sample entry type');
      track.id = trackId(b, trak);
      tracks.push(track);
    }
    if (tracks.length === 0) throw new Error('the init segment describes no track');
    const codecs = tracks.map((t) => t.codec);
    return {
      codecs,
      mimeType: 'video/mp4; codecs="' + codecs.join(',') + '"',
      tracks,
      video: tracks.find((t) => t.kind === 'video') || null,
      audio: tracks.find((t) => t.kind === 'audio') || null,
    };
  }

  // The track_ID in a trak's tkhd.
  function trackId(b, trak) {
    const tkhd = child(b, trak, 'tkhd');
    if (!tkhd || tkhd.end - tkhd.body < 24) throw new Error('a track without a readable tkhd box');
    return u32(b, tkhd.body + (b[tkhd.body] === 1 ? 20 : 12));
  }

  // A box of `type` holding `parts` (Uint8Arrays) in order.
  function box(type, parts) {
    const size = 8 + parts.reduce((n, part) => n + part.length, 0);
    const out = new Uint8Array(size);
    out[0] = size >>> 24; out[1] = (size >>> 16) & 255; out[2] = (size >>> 8) & 255; out[3] = size & 255;
    for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
    let offset = 8;
    for (const part of parts) { out.set(part, offset); offset += part.length; }
    return out;
  }

  // The moov without the tracks (trak and trex) whose IDs are in the set `drop`.
  function moovWithout(moovBytes, drop) {
    const b = moovBytes;
    const moov = header(b, 0, b.length);
    if (!moov || moov.type !== 'moov' || moov.end > b.length) throw new Error('the init segment has no moov box');
    const parts = [];
    for (const c of children(b, moov.body, moov.end)) {
      if (c.type === 'trak' && drop.has(trackId(b, c))) continue;
      if (c.type === 'mvex') {
        const kept = children(b, c.body, c.end).filter((x) => {
          if (x.type !== 'trex') return true;
          if (x.end - x.body < 8) throw new Error('truncated trex box');
          return !drop.has(u32(b, x.body + 4));
        });
        parts.push(box('mvex', kept.map((x) => b.subarray(x.start, x.end))));
        continue;
      }
      parts.push(b.subarray(c.start, c.end));
    }
    return box('moov', parts);
  }

  // The moof without the trafs of the tracks in `drop`, the kept truns' data offsets moved back by
  // the bytes removed (their samples stay where they are in the mdat that follows); null when no
  // traf is left. Only moofs whose kept trafs count data from the moof (default-base-is-moof, as
  // fragments for MSE are made) can be rewritten; others throw.
  function moofWithout(moofBytes, drop) {
    const b = moofBytes;
    const moof = header(b, 0, b.length);
    if (!moof || moof.type !== 'moof' || moof.end > b.length) throw new Error('not a moof box');
    let removed = 0, trafs = 0;
    const kept = [];
    for (const c of children(b, moof.body, moof.end)) {
      if (c.type === 'traf') {
        const tfhd = child(b, c, 'tfhd');
        if (!tfhd || tfhd.end - tfhd.body < 8) throw new Error('a track fragment without a readable tfhd box');
        if (drop.has(u32(b, tfhd.body + 4))) { removed += c.end - c.start; continue; }
        const flags = u32(b, tfhd.body) & 0xffffff;
        if ((flags & 0x1) || !(flags & 0x20000)) throw new Error('track fragments that do not count data from the moof');
        trafs++;
      }
      kept.push(b.subarray(c.start, c.end));
    }
    if (removed === 0) return moofBytes;
    if (trafs === 0) return null;
    const out = box('moof', kept);
    for (const traf of children(out, 8, out.length)) {
      if (traf.type !== 'traf') continue;
      for (const trun of children(out, traf.body, traf.end)) {
        if (trun.type !== 'trun' || trun.end - trun.body < 12 || !(out[trun.body + 3] & 1)) continue;
        const at = trun.body + 8;
        const offset = ((out[at] << 24) | (out[at + 1] << 16) | (out[at + 2] << 8) | out[at + 3]) - removed;
        out[at] = (offset >>> 24) & 255; out[at + 1] = (offset >>> 16) & 255; out[at + 2] = (offset >>> 8) & 255; out[at + 3] = offset & 255;
      }
    }
    return out;
  }

  return { BoxSplitter, describeInit, moovWithout, moofWithout };
})();
