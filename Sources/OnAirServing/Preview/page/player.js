// Script module OnAirPlayer: streams /live.mp4 with fetch, appends whole boxes to a
// SourceBuffer, keeps playback near the live edge (seek forward when far behind, play a little
// faster when slightly behind), trims old buffer, and on any failure says what went wrong and
// connects again by itself. Without sound it leaves the audio track out (audio arrives after
// the video of the same moment and would hold the picture back); setSound(true) reconnects
// with it.
class PreviewProblem extends Error {
  constructor(level, text, retryMs) { super(text); this.level = level; this.retryMs = retryMs; }
}

// Waits up to `delay` ms before the next attempt, but no longer than the server takes to answer
// again: a server that went away (restarted) is asked ten times a second (`probe`, a request that
// needs no session), and the wait ends at its first answer after it was down, rather than at the end
// of a back-off that grew while it was down. `eager`: the connection was lost while playing, so the
// first answer is enough. Shared by both transports.
async function untilServerAnswers(delay, eager, stopped, probe) {
  const until = performance.now() + delay;
  let wasDown = eager;
  while (!stopped() && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(0, until - performance.now()))));
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 1000);
    try {
      await probe(controller.signal);
      if (wasDown) return;
    } catch (error) {
      wasDown = true;
    } finally {
      clearTimeout(timer);
    }
  }
}

class OnAirPlayer {
  constructor(video, url, onStatus, headers) {
    this.video = video;
    this.url = url;
    this.headers = headers || {};  // e.g. Authorization: the token travels here, not in the URL
    this.onStatus = onStatus;
    this.sound = false;            // whether the audio track is played (else left out)
    this.targetAheadWithAudio = 0.1;  // seconds of media to keep buffered ahead of playback
    this.targetAheadVideoOnly = 0.05;
    this.targetAhead = this.targetAheadVideoOnly;
    this.skipAhead = 1.0;          // further behind than this, seek instead of speeding up
    this.stallMs = 4000;           // no bytes for this long: the stream is lost
    this.maximumQueueBytes = 16 * 1024 * 1024;
    this.connections = 0;
    this.liveSkips = 0;
    this.trims = 0;
    this.bytes = 0;
    this.failures = 0;
    this.description = null;
    this.session = null;
    this.failure = null;
    this.ahead = 0;
    this.aheadLabel = 'Buffered ahead in this page ';
    this.playing = false;
    video.addEventListener('error', () => {
      const error = video.error;
      if (!this.session || !error) return;
      const names = { 1: 'aborted', 2: 'network error', 3: 'decode error', 4: 'format not supported' };
      this.fail(new PreviewProblem('error', 'The browser could not play the stream (' + (names[error.code] || 'error ' + error.code)
        + (error.message ? ': ' + error.message : '') + ').', 1000));
    });
    video.addEventListener('playing', () => {
      if (!this.session) return;
      this.playing = true;
      this.failures = 0;
      this.onStatus('ok', 'Live');
    });
    video.addEventListener('waiting', () => { if (this.session && this.playing) this.onStatus('info', 'Live — waiting for data…'); });
    setInterval(() => this.chaseLiveEdge(), 200);
  }

  start() { this.run(); }

  // Whether a media source is open on the video element.
  get active() { return this.session !== null; }

  // What the page's facts line says about this player.
  facts() {
    const facts = ['MSE'];
    if (this.description) {
      const v = this.description.video;
      if (v) facts.push(v.width + '×' + v.height);
      facts.push(this.description.codecs.join(' + ') + (this.session && this.session.drop.size > 0 ? ' (audio left out while muted)' : ''));
    }
    if (this.session) facts.push('buffer ' + (this.ahead * 1000).toFixed(0) + ' ms');
    return facts;
  }

  async run() {
    for (;;) {
      const controller = new AbortController();
      this.controller = controller;
      this.failure = null;
      this.received = 0;
      let problem;
      try {
        await this.connect(controller.signal);
        problem = this.failure || new PreviewProblem('warn', 'The server ended the stream.', 500);
      } catch (error) {
        problem = this.failure || this.explain(error);
      }
      const wasPlaying = this.received > 0;
      controller.abort();
      this.teardown();
      if (problem.retryMs === 0) { this.onStatus(problem.level, problem.message); continue; }
      this.failures += 1;
      const delay = Math.min(problem.retryMs * Math.pow(1.6, Math.min(this.failures - 1, 6)), Math.max(problem.retryMs, 5000));
      this.onStatus(problem.level, problem.message + ' Trying again in ' + (delay / 1000).toFixed(1) + ' s…');
      // The stream's server answers /healthz without a session (a refusal is an answer too).
      await untilServerAnswers(delay, wasPlaying || problem.message.startsWith('Server gone'), () => false,
        (signal) => fetch(new URL('/healthz', location.href), { cache: 'no-store', signal }));
    }
  }

  // Words for an error that is not already a PreviewProblem.
  explain(error) {
    if (error instanceof PreviewProblem) return error;
    if (error && error.name === 'TypeError') {
      return this.received > 0
        ? new PreviewProblem('warn', 'Stream lost: the connection to the server broke.', 500)
        : new PreviewProblem('error', 'Server gone: cannot reach ' + location.host + '.', 1000);
    }
    return new PreviewProblem('error', 'Playback failed: ' + (error && error.message ? error.message : String(error)) + '.', 1000);
  }

  // Plays with or without sound: reconnects when the audio track must come in or may go out.
  setSound(on) {
    if (on === this.sound) return;
    this.sound = on;
    const session = this.session;
    if (session && (on ? session.drop.size > 0 : this.description && this.description.audio)) {
      this.fail(new PreviewProblem('info', on ? 'Turning the sound on…' : 'Turning the sound off…', 0));
    }
  }

  // Ends the current connection with `problem` as the reason.
  fail(problem) {
    if (!this.failure) this.failure = problem;
    if (this.controller) this.controller.abort();
  }

  async connect(signal) {
    this.connections += 1;
    this.onStatus('info', this.connections === 1 ? 'Connecting…' : 'Reconnecting…');
    const reader = await this.openReader(signal);
    signal.addEventListener('abort', () => { reader.cancel().catch(() => {}); });
    const splitter = new OnAirMP4.BoxSplitter();
    let init = [];
    let session = null;
    let skipData = false;
    for (;;) {
      const { done, value } = await this.read(reader);
      if (done) return;
      this.received += value.length;
      this.bytes += value.length;
      for (const box of splitter.push(value)) {
        if (!session) {
          if (box.type === 'ftyp') init = [box];
          else if (box.type === 'moov') {
            init.push(box);
            session = await this.open(init);
          }
          continue;
        }
        let bytes = box.bytes;
        if (box.type === 'moof') {
          bytes = session.drop.size > 0 ? OnAirMP4.moofWithout(bytes, session.drop) : bytes;
          skipData = bytes === null;
          if (skipData) continue;
        } else if (box.type === 'mdat') {
          if (skipData) { skipData = false; continue; }
        } else {
          continue;
        }
        session.queue.push(bytes);
        session.queuedBytes += bytes.length;
        if (session.queuedBytes > this.maximumQueueBytes) {
          throw new PreviewProblem('warn', 'This page could not keep up with the stream.', 500);
        }
      }
      if (session) this.pump(session);
    }
  }

  // GETs `url` (with the page's headers); a PreviewProblem for an answer that is not 200.
  async get(url, signal) {
    return this.check(await fetch(url, { signal, cache: 'no-store', headers: this.headers }));
  }

  // The response when it is a success, else the PreviewProblem its status means (thrown).
  check(response) {
    if (response.status === 401 || response.status === 403) {
      throw new PreviewProblem('error', 'Access refused (HTTP ' + response.status + '): open this page with the server\'s ?token=… or log in.', 5000);
    }
    if (response.status === 503) throw new PreviewProblem('warn', 'The server has no room for another viewer (HTTP 503).', 3000);
    if (!response.ok) throw new PreviewProblem('error', 'The server answered HTTP ' + response.status + ' for the stream.', 3000);
    return response;
  }

  // The stream's bytes as a reader (read() → { done, value }, cancel()): /live.mp4's body.
  async openReader(signal) {
    const response = await this.get(this.url, signal);
    if (!response.body) throw new PreviewProblem('error', 'This browser cannot read a streamed response.', 30000);
    return response.body.getReader();
  }

  // The next chunk, or a PreviewProblem when none comes within stallMs.
  read(reader) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new PreviewProblem('warn', 'Stream lost: no data for ' + (this.stallMs / 1000) + ' s.', 500));
      }, this.stallMs);
      reader.read().then((result) => { clearTimeout(timer); resolve(result); },
                         (error) => { clearTimeout(timer); reject(error); });
    });
  }

  // Opens a MediaSource for the stream described by the init boxes and queues them.
  async open(init) {
    const moov = init.find((box) => box.type === 'moov');
    const description = OnAirMP4.describeInit(moov.bytes);
    this.description = description;
    // Video only unless the sound is wanted (and there is a picture to keep).
    const drop = new Set(!this.sound && description.video ? description.tracks.filter((t) => t.kind !== 'video').map((t) => t.id) : []);
    const played = description.tracks.filter((t) => !drop.has(t.id));
    const mimeType = 'video/mp4; codecs="' + played.map((t) => t.codec).join(',') + '"';
    this.mimeType = mimeType;
    this.targetAhead = played.length > 1 ? this.targetAheadWithAudio : this.targetAheadVideoOnly;
    const Source = window.MediaSource || window.ManagedMediaSource;
    if (!Source) {
      throw new PreviewProblem('error', 'This browser has no Media Source Extensions, so it cannot play the stream in a page; open /live.ts in a player instead.', 30000);
    }
    if (!Source.isTypeSupported(mimeType)) {
      throw new PreviewProblem('error', 'Codec not supported: this browser cannot play ' + description.codecs.join(' + ')
        + ' (' + mimeType + ').', 15000);
    }
    const mediaSource = new Source();
    const objectURL = URL.createObjectURL(mediaSource);
    if (Source !== window.MediaSource) this.video.disableRemotePlayback = true;
    this.video.src = objectURL;
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new PreviewProblem('error', 'The browser did not open the media source.', 2000)), 5000);
      mediaSource.addEventListener('sourceopen', () => { clearTimeout(timer); resolve(); }, { once: true });
    });
    URL.revokeObjectURL(objectURL);
    const sourceBuffer = mediaSource.addSourceBuffer(mimeType);
    const parts = init.map((box) => box.type === 'moov' && drop.size > 0 ? OnAirMP4.moovWithout(box.bytes, drop) : box.bytes);
    const bytes = OnAirPlayer.concat(parts);
    const session = { mediaSource, sourceBuffer, drop, queue: [bytes], queuedBytes: bytes.length, removal: null, started: false };
    sourceBuffer.addEventListener('updateend', () => {
      this.pump(session);
      // The first media is in: start playback now rather than at the next tick of chaseLiveEdge.
      if (!session.started && session === this.session) this.chaseLiveEdge();
    });
    this.session = session;
    this.playing = false;
    return session;
  }

  static concat(parts) {
    if (parts.length === 1) return parts[0];
    let length = 0;
    for (const part of parts) length += part.length;
    const joined = new Uint8Array(length);
    let offset = 0;
    for (const part of parts) { joined.set(part, offset); offset += part.length; }
    return joined;
  }

  // Hands queued bytes (or a pending removal) to the SourceBuffer when it is idle.
  pump(session) {
    if (session !== this.session || session.mediaSource.readyState !== 'open') return;
    const sourceBuffer = session.sourceBuffer;
    if (sourceBuffer.updating) return;
    if (session.removal) {
      const [start, end] = session.removal;
      session.removal = null;
      if (end > start) { sourceBuffer.remove(start, end); return; }
    }
    if (session.queue.length === 0) return;
    const bytes = OnAirPlayer.concat(session.queue);
    session.queue = [];
    session.queuedBytes = 0;
    try {
      sourceBuffer.appendBuffer(bytes);
    } catch (error) {
      if (error.name === 'QuotaExceededError' && this.video.buffered.length > 0) {
        session.queue = [bytes];
        session.queuedBytes = bytes.length;
        session.removal = [this.video.buffered.start(0), Math.max(0, this.video.currentTime - 1)];
        this.trims += 1;
        setTimeout(() => this.pump(session), 50);
        return;
      }
      this.fail(new PreviewProblem('error', 'The browser refused the stream data (' + error.message + ').', 1000));
    }
  }

  // Keeps playback close to the newest buffered media and trims what lies far behind.
  chaseLiveEdge() {
    const session = this.session, video = this.video;
    if (!session || session.mediaSource.readyState !== 'open') return;
    const buffered = video.buffered;
    if (buffered.length === 0) return;
    const last = buffered.length - 1;
    const end = buffered.end(last), lastStart = buffered.start(last);
    const live = Math.max(lastStart, end - this.targetAhead);
    if (!session.started) {
      session.started = true;
      video.currentTime = live;
      const playing = video.play();
      if (playing) {
        playing.catch((error) => {
          if (error.name === 'NotAllowedError') this.onStatus('warn', 'The browser holds playback back: click the video to start it.');
        });
      }
      return;
    }
    const current = video.currentTime;
    this.ahead = end - current;
    const inLastRange = current >= lastStart - 0.05;
    if (!inLastRange || this.ahead > this.skipAhead) {
      video.currentTime = live;
      this.liveSkips += 1;
      video.playbackRate = 1;
    } else if (this.ahead > this.targetAhead + 0.25) {
      video.playbackRate = 1.25;
    } else if (this.ahead > this.targetAhead + 0.06) {
      video.playbackRate = 1.06;
    } else {
      video.playbackRate = 1;
    }
    if (video.paused && !video.seeking && this.playing) video.play().catch(() => {});
    const first = buffered.start(0);
    if (current - first > 15 && !session.removal) {
      session.removal = [first, current - 5];
      this.trims += 1;
      this.pump(session);
    }
  }

  // Detaches the MediaSource so the next connection starts clean.
  teardown() {
    this.session = null;
    this.playing = false;
    this.ahead = 0;
    this.video.removeAttribute('src');
    this.video.load();
  }
}

// Plays the Low-Latency HLS variant (`onair serve --hls-variant lowlatency`) through the same MSE
// pipeline: its own client reads the media playlist, starts at the last independent part listed
// (a keyframe, within PART-HOLD-BACK of the live edge), then asks for each next part by blocking
// playlist reload (_HLS_msn/_HLS_part: the server answers when the part is published) and fetches
// it; the init section and the parts reach OnAirPlayer as one fragmented MP4 stream.
class OnAirLLHLSPlayer extends OnAirPlayer {
  constructor(video, url, onStatus, headers) {
    super(video, url, onStatus, headers);
    // The media comes a part (0.2 s) at a time, not a frame at a time: keep about a part buffered,
    // or playback runs dry between parts and is sped up and slowed down at every part.
    this.targetAheadVideoOnly = 0.25;
    this.targetAheadWithAudio = 0.3;
    this.targetAhead = this.targetAheadVideoOnly;
  }

  facts() {
    const facts = super.facts();
    facts[0] = 'MSE (LL-HLS)';
    return facts;
  }

  // The first playlist. A server that has just started has none yet (404): the page then asks for
  // the first part by blocking reload (_HLS_msn=0&_HLS_part=0), which the server holds until a
  // playlist lists it, so playback begins the moment there is a part to play. A listing without an
  // independent part yet (or a server that answers at once) is asked again a tenth of a second
  // later; up to 10 s in all.
  async firstListing(playlist, signal) {
    const until = performance.now() + 10000;
    const first = new URL(playlist);
    first.searchParams.set('_HLS_msn', 0);
    first.searchParams.set('_HLS_part', 0);
    let url = playlist;
    for (;;) {
      const asked = performance.now();
      const response = await fetch(url, { signal, cache: 'no-store', headers: this.headers });
      const listing = response.ok ? await response.text() : null;
      const early = response.status === 404 || response.status === 503
        || (listing !== null && listing.includes('#EXT-X-PART-INF') && !listing.includes('INDEPENDENT=YES'));
      if (!early || performance.now() >= until) return listing !== null ? listing : this.check(response).text();
      const held = url === first;
      url = response.status === 404 ? first : playlist;
      if (!held && url === first) continue;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - (performance.now() - asked))));
    }
  }

  async openReader(signal) {
    const playlist = new URL(this.url, location.href);
    const text = async (url) => (await this.get(url, signal)).text();
    let listing = await this.firstListing(playlist, signal);
    const parts = [...listing.matchAll(/#EXT-X-PART:[^\n]*URI="part_(\d+)_(\d+)\.m4s[^"]*"(,INDEPENDENT=YES)?/g)];
    const start = parts.filter((part) => part[3]).pop();
    const maps = [...listing.matchAll(/#EXT-X-MAP:URI="([^"?]+)/g)];
    if (!start || maps.length === 0) {
      throw new PreviewProblem('error', 'The server does not serve Low-Latency HLS here (start it with --hls-variant lowlatency).', 10000);
    }
    let msn = Number(start[1]), part = Number(start[2]);
    const queue = [new Uint8Array(await (await this.get(new URL(maps.pop()[1], playlist), signal)).arrayBuffer())];
    let cancelled = false;
    return {
      cancel: async () => { cancelled = true; },
      read: async () => {
        while (!cancelled) {
          if (queue.length > 0) return { done: false, value: queue.shift() };
          const name = 'part_' + msn + '_' + part + '.m4s';
          // Listed as a part (#EXT-X-PART), not only hinted: the hint names the current segment's next
          // part, which does not come when a keyframe starts the next segment instead.
          if (listing.split('\n').some((line) => line.startsWith('#EXT-X-PART:') && line.includes('URI="' + name))) {
            queue.push(new Uint8Array(await (await this.get(new URL(name, playlist), signal)).arrayBuffer()));
            part += 1;
          } else if (listing.includes('segment_' + msn + '.m4s')) {
            msn += 1;  // that segment ended before this part: the next one's first part follows
            part = 0;
          } else {
            const reload = new URL(playlist);
            reload.searchParams.set('_HLS_msn', msn);
            reload.searchParams.set('_HLS_part', part);
            listing = await text(reload);
          }
        }
        return { done: true };
      },
    };
  }
}
