// Script module OnAirPlot: a time series drawn as a line over the last few minutes in a
// canvas, scaled to its largest value, sharp on high-density screens.
class OnAirPlot {
  constructor(canvas, color, format, windowSeconds) {
    this.canvas = canvas;
    this.color = color;
    this.format = format;
    this.windowMs = windowSeconds * 1000;
    this.points = [];
  }

  add(timeMs, value) {
    if (!Number.isFinite(value)) return;
    this.points.push([timeMs, value]);
    while (this.points.length > 0 && this.points[0][0] < timeMs - this.windowMs) this.points.shift();
  }

  // The smallest of 1, 2 or 5 times a power of ten at or above value.
  static ceiling(value) {
    if (!(value > 0)) return 1;
    const power = Math.pow(10, Math.floor(Math.log10(value)));
    for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
    return 10 * power;
  }

  draw(nowMs) {
    const canvas = this.canvas, ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * ratio)), height = Math.max(1, Math.round(canvas.clientHeight * ratio));
    if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; }
    const g = canvas.getContext('2d');
    g.clearRect(0, 0, width, height);
    const pad = 4 * ratio, top = 14 * ratio, plotHeight = height - top - pad;
    const max = OnAirPlot.ceiling(this.points.reduce((m, p) => Math.max(m, p[1]), 0));
    g.strokeStyle = 'rgba(255, 255, 255, 0.12)';
    g.lineWidth = ratio;
    g.beginPath();
    for (let i = 0; i <= 2; i++) {
      const y = Math.round(top + plotHeight * i / 2) + 0.5;
      g.moveTo(0, y);
      g.lineTo(width, y);
    }
    g.stroke();
    g.fillStyle = 'rgba(255, 255, 255, 0.5)';
    g.font = (10 * ratio) + 'px system-ui, sans-serif';
    g.textBaseline = 'top';
    g.fillText(this.format(max), pad, 1);
    g.textAlign = 'right';
    g.fillText((this.windowMs / 60000).toFixed(0) + ' min', width - pad, 1);
    g.textAlign = 'left';
    if (this.points.length === 0) return;
    const x = (t) => width - (nowMs - t) / this.windowMs * width;
    const y = (v) => top + plotHeight * (1 - Math.min(v, max) / max);
    g.beginPath();
    g.moveTo(x(this.points[0][0]), top + plotHeight);
    for (const [t, v] of this.points) g.lineTo(x(t), y(v));
    g.lineTo(x(this.points[this.points.length - 1][0]), top + plotHeight);
    g.closePath();
    g.fillStyle = this.color + '33';
    g.fill();
    g.beginPath();
    this.points.forEach(([t, v], i) => (i === 0 ? g.moveTo(x(t), y(v)) : g.lineTo(x(t), y(v))));
    g.strokeStyle = this.color;
    g.lineWidth = 2 * ratio;
    g.lineJoin = 'round';
    g.stroke();
  }
}
