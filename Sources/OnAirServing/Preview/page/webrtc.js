// Script module OnAirWebRTCPlayer: plays the stream over WebRTC from the server's WHEP endpoint
// (POST /whep). One RTCPeerConnection with receive-only video and audio transceivers whose tracks
// go into one MediaStream on the video element (the browser keeps picture and sound in sync);
// the offer is sent once ICE gathering is complete (no trickle ICE) with the page's token as a
// Bearer header, the answer set, and the session's Location deleted when the page goes away or
// the connection is given up. Until the first frame any failure (no WebRTC on the server, an
// offer refused, ICE or DTLS failing, no picture within firstFrameMs) ends the player with
// onGiveUp(reason in words), so the page can play over MSE instead; after a first frame it
// connects again by itself. Test hooks (the page's ?webrtc=): "fail" sends a bogus offer, "dtls"
// spoils the answer's certificate fingerprint so the DTLS handshake fails.
class OnAirWebRTCPlayer {
  constructor(video, endpoint, token, onStatus, options) {
    this.video = video;
    this.endpoint = endpoint;
    this.token = token;
    this.onStatus = onStatus;
    this.onGiveUp = options.onGiveUp;
    this.hook = options.hook || null;
    this.firstFrameMs = options.firstFrameMs || 4000;  // from the start of an attempt to its first frame
    this.gatheringMs = 1500;       // longest wait for ICE gathering; then the candidates so far go
    this.stallMs = 4000;           // no new frame decoded for this long: the connection is lost
    this.checkMs = 900;            // no new frame for this long: ask the server whether the session lives
    this.disconnectedMs = 3000;    // "disconnected" for this long: the connection is lost
    this.sound = false;
    this.connections = 0;
    this.failures = 0;
    this.everPlayed = false;
    this.playing = false;
    this.stopped = false;
    this.active = false;
    this.ahead = 0;                // the jitter buffer's delay, seconds
    this.aheadLabel = 'Jitter buffer in this page ';
    this.figures = null;           // from getStats, see poll()
    this.codecs = null;
    this.location = null;          // the session's URL, for DELETE
    this.pc = null;
    this.controller = null;
    this.failure = null;
    this.timeline = {};            // ms since the page's time origin of the last attempt's steps
    window.addEventListener('pagehide', () => this.stop());
  }

  start() { this.run(); }

  // Ends the current connection with `problem` as the reason.
  fail(problem) {
    if (!this.failure) this.failure = problem;
    if (this.controller) this.controller.abort();
  }

  // Leaves for good (the page goes away): closes the connection and deletes the session.
  stop() {
    this.stopped = true;
    this.fail(new PreviewProblem('info', 'Stopped.', 0));
    this.teardown();
  }

  // With WebRTC the sound is always received; the element's muted flag alone decides.
  setSound(on) { this.sound = on; }

  async run() {
    while (!this.stopped) {
      const controller = new AbortController();
      this.controller = controller;
      this.failure = null;
      let problem;
      try {
        await this.connect(controller.signal);
        problem = this.failure || new PreviewProblem('warn', 'The WebRTC connection ended.', 500);
      } catch (error) {
        problem = this.failure || this.explain(error);
      }
      const wasPlaying = this.playing;
      controller.abort();
      this.teardown();
      if (this.stopped) return;
      if (!this.everPlayed || problem.fallback) {
        this.stopped = true;
        this.onGiveUp(problem.message);
        return;
      }
      this.failures += 1;
      const delay = Math.min(problem.retryMs * Math.pow(1.6, Math.min(this.failures - 1, 6)), Math.max(problem.retryMs, 5000));
      this.onStatus(problem.level, problem.message + ' Trying again in ' + (delay / 1000).toFixed(1) + ' s…');
      // A session that was playing is offered again as soon as the server answers (it may have
      // restarted); a server that keeps failing offers waits out the back-off.
      await this.untilServerAnswers(delay, wasPlaying || problem.message.startsWith('Server gone'));
    }
  }

  // Waits before the next offer until the server answers again (see untilServerAnswers in player.js).
  async untilServerAnswers(delay, eager) {
    await untilServerAnswers(delay, eager, () => this.stopped,
      (signal) => fetch(this.endpoint, { method: 'OPTIONS', cache: 'no-store', signal }));
  }

  // Words for an error that is not already a PreviewProblem.
  explain(error) {
    if (error instanceof PreviewProblem) return error;
    if (error && error.name === 'TypeError') return new PreviewProblem('error', 'Server gone: cannot reach ' + location.host + '.', 1000);
    return new PreviewProblem('error', 'WebRTC failed: ' + (error && error.message ? error.message : String(error)) + '.', 1000);
  }

  // A problem after which the page should not try WebRTC again (the server has none).
  static final(text) {
    const problem = new PreviewProblem('warn', text, 0);
    problem.fallback = true;
    return problem;
  }

  // `promise`, or a rejection as soon as `signal` aborts.
  static within(promise, signal) {
    return new Promise((resolve, reject) => {
      if (signal.aborted) { reject(new PreviewProblem('warn', 'Aborted.', 500)); return; }
      const onAbort = () => reject(new PreviewProblem('warn', 'Aborted.', 500));
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then((value) => { signal.removeEventListener('abort', onAbort); resolve(value); },
                   (error) => { signal.removeEventListener('abort', onAbort); reject(error); });
    });
  }

  async connect(signal) {
    this.connections += 1;
    this.onStatus('info', this.connections === 1 ? 'Connecting over WebRTC…' : 'Reconnecting over WebRTC…');
    if (!window.RTCPeerConnection) throw OnAirWebRTCPlayer.final('This browser has no WebRTC (RTCPeerConnection).');
    const deadline = setTimeout(() => {
      this.fail(new PreviewProblem('warn', 'No picture over WebRTC within ' + (this.firstFrameMs / 1000) + ' s of connecting.', 1000));
    }, this.firstFrameMs);
    signal.addEventListener('abort', () => clearTimeout(deadline), { once: true });

    const mark = (step) => { this.timeline[step] = Math.round(performance.now()); };
    this.timeline = {};
    mark('start');
    const pc = new RTCPeerConnection({ iceServers: [], bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require' });
    this.pc = pc;
    const stream = new MediaStream();
    pc.addEventListener('track', (event) => stream.addTrack(event.track));
    pc.addTransceiver('video', { direction: 'recvonly' });
    pc.addTransceiver('audio', { direction: 'recvonly' });
    await OnAirWebRTCPlayer.within(pc.setLocalDescription(), signal);
    await OnAirWebRTCPlayer.within(this.gathered(pc), signal);
    mark('gathered');
    let offer = pc.localDescription.sdp;
    if (this.hook === 'fail') offer = 'v=0\r\nthis is not an offer\r\n';

    const headers = { 'Content-Type': 'application/sdp' };
    if (this.token !== null) headers.Authorization = 'Bearer ' + this.token;
    const response = await fetch(this.endpoint, { method: 'POST', headers, body: offer, cache: 'no-store', signal });
    const body = await OnAirWebRTCPlayer.within(response.text(), signal);
    mark('answered');
    const said = body.trim().slice(0, 200);
    if (response.status === 404 || response.status === 405) {
      throw OnAirWebRTCPlayer.final('This server does not serve WebRTC (POST /whep: HTTP ' + response.status + '; start it with --webrtc).');
    }
    if (response.status === 401 || response.status === 403) {
      throw OnAirWebRTCPlayer.final('WebRTC access refused (HTTP ' + response.status + '): open this page with the server\'s ?token=….');
    }
    if (response.status === 503) throw OnAirWebRTCPlayer.final('The server has no room for another WebRTC viewer (HTTP 503).');
    if (response.status !== 201) {
      throw OnAirWebRTCPlayer.final('The server refused the WebRTC offer (HTTP ' + response.status + (said ? ': ' + said : '') + ').');
    }
    const where = response.headers.get('Location');
    if (where) this.location = new URL(where, new URL(this.endpoint, location.href)).href;
    let answer = body;
    if (this.hook === 'dtls') {
      // Another certificate's fingerprint: the handshake with the real one must fail.
      answer = answer.replace(/(a=fingerprint:\S+ )([0-9A-Fa-f]{2})/g, (_, prefix, first) => prefix + (first === '00' ? '11' : '00'));
    }
    try {
      await OnAirWebRTCPlayer.within(pc.setRemoteDescription({ type: 'answer', sdp: answer }), signal);
    } catch (error) {
      if (error instanceof PreviewProblem) throw error;
      throw OnAirWebRTCPlayer.final('The server\'s WebRTC answer was not usable (' + error.message + ').');
    }
    this.video.srcObject = stream;
    this.active = true;
    pc.addEventListener('connectionstatechange', () => { if (pc.connectionState === 'connected') mark('connected'); });
    const playing = this.video.play();
    if (playing) {
      playing.catch((error) => {
        if (error.name === 'NotAllowedError') this.onStatus('warn', 'The browser holds playback back: click the video to start it.');
      });
    }
    await this.watch(pc, signal, deadline, mark);
  }

  // Resolves when ICE gathering is complete, or after gatheringMs with the candidates so far.
  gathered(pc) {
    if (pc.iceGatheringState === 'complete') return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.gatheringMs);
      function done() {
        clearTimeout(timer);
        pc.removeEventListener('icegatheringstatechange', check);
        resolve();
      }
      function check() { if (pc.iceGatheringState === 'complete') done(); }
      pc.addEventListener('icegatheringstatechange', check);
    });
  }

  // Watches a connected session until it fails, stalls or is aborted: the first frame (through
  // requestVideoFrameCallback), the connection state, and getStats once a second.
  watch(pc, signal, deadline, mark) {
    return new Promise((resolve, reject) => {
      let disconnectedTimer = null, lastDecoded = -1, lastProgress = performance.now();
      const end = (problem) => {
        if (problem) { this.fail(problem); return; }
        clearInterval(poller);
        clearTimeout(disconnectedTimer);
        resolve();
      };
      signal.addEventListener('abort', () => {
        clearInterval(poller);
        clearTimeout(disconnectedTimer);
        reject(this.failure || new PreviewProblem('warn', 'The WebRTC connection ended.', 500));
      }, { once: true });
      const onFirstFrame = () => {
        if (signal.aborted) return;
        mark('firstFrame');
        clearTimeout(deadline);
        this.playing = true;
        this.everPlayed = true;
        this.failures = 0;
        lastProgress = performance.now();
        this.onStatus('ok', 'Live over WebRTC');
      };
      if ('requestVideoFrameCallback' in HTMLVideoElement.prototype) this.video.requestVideoFrameCallback(onFirstFrame);
      else this.video.addEventListener('playing', onFirstFrame, { once: true });
      pc.addEventListener('connectionstatechange', () => {
        const state = pc.connectionState;
        if (state === 'failed') {
          end(new PreviewProblem('warn', this.playing ? 'WebRTC connection lost (ICE/DTLS failed).'
            : 'WebRTC could not connect: ICE or DTLS failed.', 1000));
        } else if (state === 'disconnected') {
          clearTimeout(disconnectedTimer);
          disconnectedTimer = setTimeout(() => end(new PreviewProblem('warn', 'WebRTC connection lost: no answer from the server for '
            + (this.disconnectedMs / 1000) + ' s.', 1000)), this.disconnectedMs);
        } else if (state === 'connected') {
          clearTimeout(disconnectedTimer);
        } else if (state === 'closed') {
          end(null);
        }
      });
      let checking = false;
      const poller = setInterval(async () => {
        await this.poll(pc);
        const decoded = this.figures ? this.figures.framesDecoded : 0;
        if (decoded !== lastDecoded) { lastDecoded = decoded; lastProgress = performance.now(); }
        // A pause of a second is enough to ask whether the session still exists: a server that
        // stopped or restarted is found at once, not after the stall time.
        if (this.playing && !checking && performance.now() - lastProgress > this.checkMs) {
          checking = true;
          this.sessionGone().then((gone) => { checking = false; if (gone) end(gone); });
        }
        if (this.playing && performance.now() - lastProgress > this.stallMs) {
          end(new PreviewProblem('warn', 'Stream lost: no picture over WebRTC for ' + (this.stallMs / 1000) + ' s.', 500));
        }
      }, 1000);
    });
  }

  // The receivers' figures from getStats: frames, drops, jitter buffer, audio energy, RTT.
  async poll(pc) {
    let report;
    try { report = await pc.getStats(); } catch (error) { return; }
    let video = null, audio = null, pair = null;
    report.forEach((entry) => {
      if (entry.type === 'inbound-rtp' && entry.kind === 'video') video = entry;
      else if (entry.type === 'inbound-rtp' && entry.kind === 'audio') audio = entry;
      else if (entry.type === 'candidate-pair' && entry.nominated && entry.state === 'succeeded') pair = entry;
    });
    const codec = (entry) => {
      const found = entry && entry.codecId ? report.get(entry.codecId) : null;
      if (!found) return null;
      const profile = /profile-level-id=([0-9a-fA-F]{6})/.exec(found.sdpFmtpLine || '');
      return found.mimeType.replace(/^(video|audio)\//, '') + (profile ? ' ' + profile[1] : '');
    };
    this.codecs = [codec(video), codec(audio)].filter((c) => c !== null);
    const previous = this.figures;
    const figures = {
      framesReceived: video ? video.framesReceived || 0 : 0,
      framesDecoded: video ? video.framesDecoded || 0 : 0,
      framesDropped: video ? video.framesDropped || 0 : 0,
      freezeCount: video ? video.freezeCount || 0 : 0,
      videoPacketsLost: video ? video.packetsLost || 0 : 0,
      nackCount: video ? video.nackCount || 0 : 0,
      pliCount: video ? video.pliCount || 0 : 0,
      jitterBufferDelay: video ? video.jitterBufferDelay || 0 : 0,
      jitterBufferEmittedCount: video ? video.jitterBufferEmittedCount || 0 : 0,
      audioPackets: audio ? audio.packetsReceived || 0 : 0,
      audioSamples: audio ? audio.totalSamplesReceived || 0 : 0,
      audioConcealed: audio ? audio.concealedSamples || 0 : 0,
      audioEnergy: audio ? audio.totalAudioEnergy || 0 : 0,
      audioLevel: audio ? audio.audioLevel || 0 : 0,
      audioJitterBufferDelay: audio ? audio.jitterBufferDelay || 0 : 0,
      audioJitterBufferEmittedCount: audio ? audio.jitterBufferEmittedCount || 0 : 0,
      bytesReceived: (video ? video.bytesReceived || 0 : 0) + (audio ? audio.bytesReceived || 0 : 0),
      roundTripMs: pair && pair.currentRoundTripTime !== undefined ? pair.currentRoundTripTime * 1000 : null,
    };
    if (previous && figures.jitterBufferEmittedCount > previous.jitterBufferEmittedCount) {
      this.ahead = (figures.jitterBufferDelay - previous.jitterBufferDelay) / (figures.jitterBufferEmittedCount - previous.jitterBufferEmittedCount);
    }
    this.figures = figures;
  }

  // What the page's facts line says about this player.
  facts() {
    const facts = ['WebRTC'];
    if (this.video.videoWidth) facts.push(this.video.videoWidth + '×' + this.video.videoHeight);
    if (this.codecs && this.codecs.length > 0) facts.push(this.codecs.join(' + ') + (this.video.muted ? ' (sound muted)' : ''));
    if (this.active) facts.push('jitter buffer ' + (this.ahead * 1000).toFixed(0) + ' ms');
    if (this.figures && this.figures.roundTripMs !== null) facts.push('RTT ' + this.figures.roundTripMs.toFixed(0) + ' ms');
    return facts;
  }

  // Whether the session is gone, as a problem to end it with (null while it lives or the answer is
  // slow): PATCH on the session's URL answers 405 while it exists, 404 once the server forgot it
  // (it restarted); no answer at all means the server is down.
  async sessionGone() {
    if (!this.location) return null;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 800);
    const headers = this.token === null ? {} : { Authorization: 'Bearer ' + this.token };
    try {
      const response = await fetch(this.location, { method: 'PATCH', headers, cache: 'no-store', signal: controller.signal });
      return response.status === 404 ? new PreviewProblem('warn', 'Server restarted: the WebRTC session is gone.', 500) : null;
    } catch (error) {
      return controller.signal.aborted ? null : new PreviewProblem('error', 'Server gone: cannot reach ' + location.host + '.', 1000);
    } finally {
      clearTimeout(timer);
    }
  }

  // Closes the connection and deletes the session on the server.
  teardown() {
    this.active = false;
    this.playing = false;
    this.ahead = 0;
    if (this.pc) { this.pc.close(); this.pc = null; }
    if (this.location) {
      const headers = this.token === null ? {} : { Authorization: 'Bearer ' + this.token };
      fetch(this.location, { method: 'DELETE', headers, keepalive: true, cache: 'no-store' }).catch(() => {});
      this.location = null;
    }
    if (this.video.srcObject) {
      this.video.srcObject = null;
      this.video.load();
    }
  }
}
