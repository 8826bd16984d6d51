// Sound effects synthesised with WebAudio: nothing to download. Every sound goes
// through one master gain: the volume setting.
const FULL_VOLUME = 100;

export class Sound {
  constructor() {
    this.ctx = null;
    this.master = null;
    this.muted = false;
    // 0..1
    this.volume = 1;
  }

  /** ``on``: sound on; ``volume``: 0..100. */
  configure({ on, volume }) {
    this.muted = !on;
    this.volume = Math.min(FULL_VOLUME, Math.max(0, volume)) / FULL_VOLUME;
    if (this.master) this.master.gain.value = this.volume;
  }

  context() {
    if (!this.ctx) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return null;
      this.ctx = new Ctx();
      this.master = this.ctx.createGain();
      this.master.gain.value = this.volume;
      this.master.connect(this.ctx.destination);
    }
    if (this.ctx.state === "suspended") this.ctx.resume();
    return this.ctx;
  }

  tone(freq, start, length, type = "triangle", gain = 0.12) {
    const ctx = this.context();
    if (!ctx) return;
    const t = ctx.currentTime + start;
    const osc = ctx.createOscillator();
    const amp = ctx.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, t);
    amp.gain.setValueAtTime(0.0001, t);
    amp.gain.exponentialRampToValueAtTime(gain, t + 0.01);
    amp.gain.exponentialRampToValueAtTime(0.0001, t + length);
    osc.connect(amp).connect(this.master);
    osc.start(t);
    osc.stop(t + length + 0.02);
  }

  noise(start, length, freq, gain = 0.25) {
    const ctx = this.context();
    if (!ctx) return;
    const t = ctx.currentTime + start;
    const frames = Math.floor(ctx.sampleRate * length);
    const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
    const src = ctx.createBufferSource();
    src.buffer = buffer;
    const filter = ctx.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = freq;
    const amp = ctx.createGain();
    amp.gain.value = gain;
    src.connect(filter).connect(amp).connect(this.master);
    src.start(t);
  }

  play(name) {
    if (this.muted || !this.volume) return;
    try {
      switch (name) {
        case "place": this.noise(0, 0.06, 2200, 0.35); break;
        case "draw": this.noise(0, 0.09, 3500, 0.2); break;
        case "home": this.noise(0, 0.05, 2500, 0.3); this.tone(880, 0.02, 0.18, "sine", 0.08); break;
        case "flip": this.noise(0, 0.04, 1500, 0.3); break;
        case "bad": this.tone(140, 0, 0.18, "square", 0.05); break;
        case "undo": this.noise(0, 0.07, 1200, 0.2); break;
        case "win":
          [523, 659, 784, 1047, 784, 1047].forEach((f, i) => this.tone(f, i * 0.12, 0.3, "triangle", 0.1));
          break;
        default: break;
      }
    } catch {
      // Audio is a nicety: never let it break the game.
    }
  }
}
