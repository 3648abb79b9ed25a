// The script that wires the page together: the token (sent as a header, never in a request's
// URL), the player (WebRTC from /whep unless the page's URL says ?via=mse, or ?via=llhls for the
// Low-Latency HLS variant over MSE, and MSE from /live.mp4
// when WebRTC does not work), the
// per-frame code reader (glass-to-glass latency), /stats.json polling into the plots, the status
// line, and window.onair.snapshot() for tests and benchmarks. It comes last and uses the classes
// and modules the other scripts define.
(() => {
  const params = new URLSearchParams(location.search);
  // The token comes in the page's own address (?token=, what the user opened); every request the
  // page makes sends it only as an Authorization: Bearer header, never in its URL. (With users, the
  // browser's own Basic login covers every request.) The links below are for other players, which
  // may need ?token=.
  const token = params.get('token');
  const authorization = token === null ? {} : { Authorization: 'Bearer ' + token };
  const withToken = (path) => token === null ? path : path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token);
  for (const link of document.querySelectorAll('a[data-path]')) link.href = withToken(link.dataset.path);
  for (const code of document.querySelectorAll('code[data-srt-port]')) code.textContent = 'srt://' + location.hostname + ':' + code.dataset.srtPort + '?mode=caller' + (token === null ? '' : '&passphrase=' + token);

  const $ = (id) => document.getElementById(id);
  const video = $('video'), statusLine = $('status'), overlay = $('overlay'), transportLine = $('transport');
  let statusText = '', statusLevel = 'info';
  function setStatus(level, text) {
    statusText = text;
    statusLevel = level;
    statusLine.textContent = text;
    statusLine.dataset.level = level;
    overlay.hidden = level === 'ok' || text.startsWith('Live');
    overlay.textContent = text;
    if (level === 'ok' && transport === 'webrtc') listWHEP();
  }

  // The transport: WebRTC first, MSE by choice or when WebRTC gives up (with why, in words, on the
  // page and in the body's data-transport and data-fallback-reason).
  let player = null, transport = null, transportReason = null, fallbackReason = null, fallbackAtMs = null;
  function showTransport(name, words, reason) {
    transport = name;
    transportReason = reason;
    document.body.dataset.transport = name;
    transportLine.textContent = words + (reason ? ' — ' + reason : '');
  }
  function useMSE(reason, fallback) {
    showTransport('mse', 'Playing over MSE (fragmented MP4 from /live.mp4)', reason);
    if (fallback) {
      fallbackReason = reason;
      fallbackAtMs = performance.now();
      document.body.dataset.fallbackReason = reason;
      transportLine.dataset.level = 'warn';
    }
    player = new OnAirPlayer(video, '/live.mp4', setStatus, authorization);
    player.setSound(!video.muted);
    player.start();
  }
  function useLLHLS(reason) {
    showTransport('llhls', 'Playing Low-Latency HLS over MSE (blocking reloads of /live.m3u8, its parts)', reason);
    player = new OnAirLLHLSPlayer(video, '/live.m3u8', setStatus, authorization);
    player.setSound(!video.muted);
    player.start();
  }
  function useWebRTC() {
    showTransport('webrtc', 'Playing over WebRTC (WHEP at /whep)', null);
    player = new OnAirWebRTCPlayer(video, '/whep', token, setStatus, {
      hook: params.get('webrtc'),
      onGiveUp: (reason) => useMSE('WebRTC did not work: ' + reason, true),
    });
    player.start();
  }
  let listedWHEP = false;
  function listWHEP() {
    const list = document.querySelector('.served ul');
    if (listedWHEP || !list) return;
    listedWHEP = true;
    const item = document.createElement('li');
    const code = document.createElement('code');
    code.textContent = location.origin + '/whep';
    item.append('WHEP: ', code, ' — WebRTC for WHEP players (what this page plays; Bearer token)');
    list.prepend(item);
  }

  // Glass-to-glass latency from the frame code of every presented frame.
  const codeReader = new OnAirFrameCode.Reader();
  const latencyLog = [];          // every measured latency in ms, for tests and benchmarks
  const frameLog = [];            // [frame index, latency ms] of each measured frame, for tests
  let recentLatencies = [];       // since the last plot point
  let lastLatency = null, firstFrameMs = null, presentedFrames = 0, lastIndex = null;
  function onFrame(now, metadata) {
    presentedFrames += 1;
    if (firstFrameMs === null) firstFrameMs = metadata && metadata.presentationTime ? metadata.presentationTime : now;
    const payload = codeReader.read(video);
    if (payload && payload.index !== lastIndex) {
      lastIndex = payload.index;
      const displayAt = metadata && metadata.expectedDisplayTime ? metadata.expectedDisplayTime : now;
      const wall = Date.now() + (displayAt - performance.now());
      lastLatency = OnAirFrameCode.Reader.latencyMs(payload, wall);
      recentLatencies.push(lastLatency);
      latencyLog.push(lastLatency);
      frameLog.push([payload.index, lastLatency]);
      if (latencyLog.length > 100000) latencyLog.splice(0, 50000);
      if (frameLog.length > 100000) frameLog.splice(0, 50000);
    }
    watchFrames();
  }
  function watchFrames() {
    if ('requestVideoFrameCallback' in HTMLVideoElement.prototype) video.requestVideoFrameCallback(onFrame);
    else requestAnimationFrame((now) => onFrame(now, null));
  }
  watchFrames();

  // Plots and the facts line.
  const windowSeconds = 180;
  const kbps = (v) => v >= 1000 ? (v / 1000).toFixed(v >= 10000 ? 0 : 1) + ' Mb/s' : v.toFixed(0) + ' kb/s';
  const plots = {
    bitrate: new OnAirPlot($('plot-bitrate'), '#4c9aff', kbps, windowSeconds),
    fps: new OnAirPlot($('plot-fps'), '#4cc38a', (v) => v.toFixed(0) + ' fps', windowSeconds),
    encode: new OnAirPlot($('plot-encode'), '#f2b84b', (v) => v.toFixed(v < 10 ? 1 : 0) + ' ms', windowSeconds),
    viewers: new OnAirPlot($('plot-viewers'), '#c38af2', (v) => v.toFixed(0), windowSeconds),
    latency: new OnAirPlot($('plot-latency'), '#ff7b72', (v) => v.toFixed(0) + ' ms', windowSeconds),
  };

  // The first number found under one of `names`, searching nested objects (not arrays) breadth-first.
  function find(object, names) {
    let level = [object];
    for (let depth = 0; depth < 4 && level.length > 0; depth++) {
      const next = [];
      for (const item of level) {
        for (const name of names) if (typeof item[name] === 'number' && Number.isFinite(item[name])) return item[name];
        for (const value of Object.values(item)) if (value && typeof value === 'object' && !Array.isArray(value)) next.push(value);
      }
      level = next;
    }
    return null;
  }
  function viewerCount(stats) {
    const list = stats.viewers || (stats.server && stats.server.viewers);
    if (Array.isArray(list)) return list.length;
    return find(stats, ['viewer_count', 'viewers', 'viewerCount']);
  }

  let stats = null, statsProblem = null, statsAt = 0;
  async function pollStats() {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 2500);
    try {
      const response = await fetch('/stats.json', { cache: 'no-store', signal: controller.signal, headers: authorization });
      if (!response.ok) throw new Error('HTTP ' + response.status);
      stats = await response.json();
      statsProblem = null;
      statsAt = Date.now();
      const bitrate = find(stats, ['video_bitrate', 'videoBitRate', 'bitrate']);
      const fps = find(stats, ['fps_out', 'fps', 'fpsOut']);
      const encode = find(stats, ['encode_latency_ms', 'encode_ms', 'encodeLatencyMs']);
      const viewers = viewerCount(stats);
      if (bitrate !== null) { plots.bitrate.add(statsAt, bitrate / 1000); $('value-bitrate').textContent = kbps(bitrate / 1000); }
      if (fps !== null) { plots.fps.add(statsAt, fps); $('value-fps').textContent = fps.toFixed(1) + ' fps'; }
      if (encode !== null) { plots.encode.add(statsAt, encode); $('value-encode').textContent = encode.toFixed(1) + ' ms'; }
      if (viewers !== null) { plots.viewers.add(statsAt, viewers); $('value-viewers').textContent = String(viewers); }
    } catch (error) {
      statsProblem = error.name === 'AbortError' ? 'no answer' : error.message;
    } finally {
      clearTimeout(timer);
      setTimeout(pollStats, 1000);
    }
  }
  pollStats();

  function median(values) {
    const sorted = values.slice().sort((a, b) => a - b);
    return sorted.length === 0 ? null : sorted[Math.floor(sorted.length / 2)];
  }

  let lastQuality = null;
  setInterval(() => {
    const now = Date.now();
    const glass = median(recentLatencies);
    recentLatencies = [];
    if (glass !== null) {
      $('caption-latency').firstChild.textContent = 'Glass-to-glass latency ';
      plots.latency.add(now, glass);
      $('value-latency').textContent = glass.toFixed(0) + ' ms';
    } else if (player && player.active) {
      $('caption-latency').firstChild.textContent = player.aheadLabel;
      plots.latency.add(now, player.ahead * 1000);
      $('value-latency').textContent = (player.ahead * 1000).toFixed(0) + ' ms';
    }
    const quality = video.getVideoPlaybackQuality ? video.getVideoPlaybackQuality() : null;
    const facts = player ? player.facts() : [];
    if (quality) {
      if (lastQuality) facts.push(((quality.totalVideoFrames - lastQuality.totalVideoFrames)).toFixed(0) + ' fps shown');
      facts.push(quality.droppedVideoFrames + ' dropped');
      lastQuality = { totalVideoFrames: quality.totalVideoFrames };
    }
    if (lastLatency !== null && glass !== null) facts.push('glass-to-glass ' + lastLatency.toFixed(0) + ' ms');
    if (statsProblem) facts.push('stats: ' + statsProblem);
    $('facts').textContent = facts.join(' · ');
    if (statsProblem && player && !player.playing && player.failures > 0) setStatus('error', 'Server gone: neither the stream nor /stats.json answers. Reconnecting…');
  }, 1000);

  function drawPlots() {
    const now = Date.now();
    for (const plot of Object.values(plots)) plot.draw(now);
  }
  setInterval(drawPlots, 500);
  window.addEventListener('resize', drawPlots);

  $('sound').addEventListener('click', () => {
    video.muted = !video.muted;
    $('sound').textContent = video.muted ? 'Sound on' : 'Sound off';
    if (player) player.setSound(!video.muted);
    video.play().catch(() => {});
  });
  video.addEventListener('click', () => video.play().catch(() => {}));

  // What tests and benchmarks read.
  window.onair = {
    get player() { return player; },
    latencyLog,
    frameLog,
    snapshot() {
      const quality = video.getVideoPlaybackQuality ? video.getVideoPlaybackQuality() : { totalVideoFrames: 0, droppedVideoFrames: 0 };
      return {
        status: statusText, level: statusLevel, playing: player.playing,
        transport, transportReason, fallbackReason, fallbackAtMs, transportText: transportLine.textContent,
        webrtc: player.figures || null, webrtcTimeline: player.timeline || null,
        connections: player.connections, liveSkips: player.liveSkips || 0, trims: player.trims || 0,
        bytes: player.bytes !== undefined ? player.bytes : (player.figures ? player.figures.bytesReceived : 0),
        codecs: player.description ? player.description.codecs : (player.codecs || null),
        mimeType: player.session ? player.mimeType : null, sound: player.sound, muted: video.muted,
        videoWidth: video.videoWidth, videoHeight: video.videoHeight,
        currentTime: video.currentTime, ahead: player.ahead, playbackRate: video.playbackRate,
        totalVideoFrames: quality.totalVideoFrames, droppedVideoFrames: quality.droppedVideoFrames,
        presentedFrames, firstFrameMs, codeReads: codeReader.reads, codeMisses: codeReader.misses,
        latencyCount: latencyLog.length, lastLatencyMs: lastLatency,
        stats: stats !== null, statsProblem,
      };
    },
  };
  if (params.get('via') === 'mse') useMSE('chosen with ?via=mse', false);
  else if (params.get('via') === 'llhls') useLLHLS('chosen with ?via=llhls');
  else useWebRTC();
})();
