// Microphone capture for the kiosk: downsample the context's rate to 16 kHz mono and post PCM16 frames
// of `frameSamples` samples (an ArrayBuffer each) to the page, which sends them over the WebSocket.
// Each output sample is the mean of the input samples in its period (a box filter against aliasing).
class MicDownsampler extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const opts = (options && options.processorOptions) || {};
    this.targetRate = opts.targetRate || 16000;
    this.frameSamples = opts.frameSamples || 512;
    this.ratio = sampleRate / this.targetRate;
    this.acc = 0;
    this.count = 0;
    this.phase = 0;
    this.frame = new Int16Array(this.frameSamples);
    this.filled = 0;
  }

  push(value) {
    const clipped = Math.max(-1, Math.min(1, value));
    this.frame[this.filled++] = clipped < 0 ? clipped * 32768 : clipped * 32767;
    if (this.filled === this.frameSamples) {
      const out = this.frame.buffer;
      this.port.postMessage(out, [out]);
      this.frame = new Int16Array(this.frameSamples);
      this.filled = 0;
    }
  }

  process(inputs) {
    const input = inputs[0];
    if (!input || input.length === 0) return true;
    const channel = input[0];
    for (let i = 0; i < channel.length; i++) {
      let v = channel[i];
      for (let c = 1; c < input.length; c++) v += input[c][i];
      this.acc += v / input.length;
      this.count += 1;
      this.phase += 1;
      if (this.phase >= this.ratio) {
        this.push(this.acc / this.count);
        this.acc = 0;
        this.count = 0;
        this.phase -= this.ratio;
      }
    }
    return true;
  }
}

registerProcessor("mic-downsampler", MicDownsampler);
