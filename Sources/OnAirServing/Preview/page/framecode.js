// Script module OnAirFrameCode: reads the synthetic source's second frame code (frame index
// and the sender's wall-clock capture time, see FrameCode.readWallClock(from:) and
// FrameCodeLayout in the Swift sources) from the picture the video element shows, through a
// small canvas.
//
// It mirrors the Swift reader: same layout arithmetic, black and white references from the
// start bar and quiet zone, the clock track, a search of up to one cell around the expected
// place, the checkerboard whitening and the CRC-16/CCITT-FALSE check.
const OnAirFrameCode = (() => {
  const dataColumns = 12, dataRows = 8, columns = dataColumns + 4, rows = dataRows + 2;
  const bitCount = dataColumns * dataRows, minimumContrast = 40 * 255 / 219;
  const wallClockModulus = 2 ** 48;

  // The first code's layout for a width×height picture (FrameCodeLayout.init), or null.
  function firstLayout(width, height) {
    if (width <= 0 || height <= 0) return null;
    let cell = Math.max(6, Math.min(Math.floor(width / 64), Math.floor(height / 36)));
    cell = Math.min(cell, Math.floor(width / (columns + 1)), Math.floor(height / (rows + 1)));
    return cell >= 3 ? { cell, x: cell, y: cell } : null;
  }

  // The wall-clock code's layout (FrameCodeLayout.wallClock), or null when the picture is too narrow.
  function wallClockLayout(width, height) {
    const first = firstLayout(width, height);
    if (!first) return null;
    const second = { cell: first.cell, x: first.x + (columns + 1) * first.cell, y: first.y };
    return second.x + columns * second.cell + second.cell <= width ? second : null;
  }

  function crc16(bytes, count) {
    let crc = 0xffff;
    for (let i = 0; i < count; i++) {
      crc ^= bytes[i] << 8;
      for (let bit = 0; bit < 8; bit++) crc = (crc & 0x8000) ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
    return crc;
  }

  function whitening(position) {
    return ((position % dataColumns) + Math.floor(position / dataColumns)) % 2 === 0;
  }

  // Luma of a region: width, height and one value per pixel.
  class Luma {
    constructor(rgba, width, height) {
      this.width = width;
      this.height = height;
      this.values = new Float32Array(width * height);
      for (let i = 0, p = 0; i < this.values.length; i++, p += 4) {
        this.values[i] = 0.299 * rgba[p] + 0.587 * rgba[p + 1] + 0.114 * rgba[p + 2];
      }
    }

    // Mean luma over the central half of cell (column, row) of a layout.
    cellMean(layout, column, row) {
      const cell = layout.cell, inset = Math.floor(cell / 4), span = cell - 2 * inset;
      const step = Math.max(1, Math.floor(span / 8));
      const x0 = layout.x + column * cell + inset, y0 = layout.y + row * cell + inset;
      let sum = 0, count = 0;
      for (let y = y0; y < y0 + span; y += step) {
        const rowStart = y * this.width;
        for (let x = x0; x < x0 + span; x += step) { sum += this.values[rowStart + x]; count++; }
      }
      return count === 0 ? 0 : sum / count;
    }

    // The payload at layout: {index, micros}, or null.
    read(layout) {
      const cell = layout.cell;
      if (layout.x < 0 || layout.y < 0 || layout.x + columns * cell > this.width || layout.y + rows * cell > this.height) return null;
      let black = 0;
      const bar = [];
      for (let row = 1; row <= dataRows; row++) { const m = this.cellMean(layout, 1, row); bar.push(m); black += m; }
      black /= bar.length;
      const quiet = [];
      for (let column = 0; column < columns; column++) quiet.push(this.cellMean(layout, column, 0), this.cellMean(layout, column, rows - 1));
      for (let row = 1; row <= dataRows; row++) quiet.push(this.cellMean(layout, 0, row), this.cellMean(layout, columns - 1, row));
      const white = quiet.reduce((a, b) => a + b, 0) / quiet.length;
      if (white - black < minimumContrast) return null;
      const threshold = (black + white) / 2;
      if (!bar.every((m) => m < threshold) || !quiet.every((m) => m > threshold)) return null;
      for (let row = 1; row <= dataRows; row++) {
        if ((this.cellMean(layout, columns - 2, row) > threshold) !== (row % 2 === 0)) return null;
      }
      const bytes = new Uint8Array(bitCount / 8);
      for (let bit = 0; bit < bitCount; bit++) {
        const column = 2 + bit % dataColumns, row = 1 + Math.floor(bit / dataColumns);
        const isWhite = this.cellMean(layout, column, row) > threshold;
        if (isWhite !== whitening(bit)) bytes[bit >> 3] |= 0x80 >> (bit & 7);
      }
      if (crc16(bytes, 10) !== ((bytes[10] << 8) | bytes[11])) return null;
      const index = ((bytes[0] << 24) >>> 0) + ((bytes[1] << 16) | (bytes[2] << 8) | bytes[3]);
      let micros = 0;
      for (let i = 4; i < 10; i++) micros = micros * 256 + bytes[i];
      return { index, micros };
    }
  }

  class Reader {
    constructor() {
      this.canvas = document.createElement('canvas');
      this.context = this.canvas.getContext('2d', { willReadFrequently: true });
      this.reads = 0;
      this.misses = 0;
    }

    // The wall-clock code of the picture `video` shows now: {index, micros} (micros since 1970
    // modulo 2^48), or null when there is none (not the synthetic source, or unreadable).
    read(video) {
      const width = video.videoWidth, height = video.videoHeight;
      const layout = wallClockLayout(width, height);
      if (!layout || !this.context) return null;
      const cell = layout.cell;
      const x0 = Math.max(0, layout.x - cell), y0 = Math.max(0, layout.y - cell);
      const x1 = Math.min(width, layout.x + (columns + 1) * cell), y1 = Math.min(height, layout.y + (rows + 1) * cell);
      const w = x1 - x0, h = y1 - y0;
      if (this.canvas.width !== w || this.canvas.height !== h) { this.canvas.width = w; this.canvas.height = h; }
      let luma;
      try {
        this.context.drawImage(video, x0, y0, w, h, 0, 0, w, h);
        luma = new Luma(this.context.getImageData(0, 0, w, h).data, w, h);
      } catch (error) {
        return null;
      }
      const step = Math.max(1, Math.floor(cell / 3));
      const shifts = [];
      for (let d = -cell; d <= cell; d += step) shifts.push(d);
      const offsets = [];
      for (const dy of shifts) for (const dx of shifts) offsets.push([dx, dy]);
      offsets.sort((a, b) => (Math.abs(a[0]) + Math.abs(a[1])) - (Math.abs(b[0]) + Math.abs(b[1])));
      for (const [dx, dy] of offsets) {
        const payload = luma.read({ cell, x: layout.x - x0 + dx, y: layout.y - y0 + dy });
        if (payload) { this.reads++; return payload; }
      }
      this.misses++;
      return null;
    }

    // Milliseconds from the code's capture time to `wallClockMs` (a Date.now()-style time).
    static latencyMs(payload, wallClockMs) {
      let difference = (Math.round(wallClockMs * 1000) - payload.micros) % wallClockModulus;
      if (difference < 0) difference += wallClockModulus;
      if (difference >= wallClockModulus / 2) difference -= wallClockModulus;
      return difference / 1000;
    }
  }

  return { Reader, firstLayout, wallClockLayout };
})();
