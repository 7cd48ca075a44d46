// The kiosk page: microphone → WebSocket (PCM16 16 kHz frames from an AudioWorklet), replies ← WebSocket
// (PCM16 at the announced rate, scheduled back to back), and the protocol's events on screen.
// Optional URL fragment: #token=...&badge=... (a signed badge token; a fragment never reaches server logs).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token") || "";
  let user = params.get("user") || "";
  let badge = params.get("badge") || "";
  let pinFor = ""; // a badge id waiting for its PIN (typed digits, then Enter)

  // Observable state (the end-to-end test reads it; nothing here is sent anywhere).
  const state = (window.kioskState = {
    status: "connecting", ready: null, conversation: null, visits: 0, finals: [], says: [], partial: "",
    micFrames: 0, audioBytes: 0, scheduledMs: 0, playedMs: 0, barges: 0, turnsDone: 0, errors: [], erased: 0,
  });

  let ctx = null;
  let ws = null;
  let outRate = 22050;
  let nextTime = 0;
  let reply = null; // the element of the reply being spoken
  let retryMs = 500;
  const playing = new Set();

  function setStatus(value) {
    state.status = value;
    const el = $("status");
    el.textContent = value;
    el.className = "status " + value;
  }

  function notice(text) {
    $("notice").textContent = text;
  }

  function addTurn(role, text) {
    const el = document.createElement("div");
    el.className = "turn " + role;
    el.textContent = text;
    $("transcript").appendChild(el);
    el.scrollIntoView({ block: "end" });
    return el;
  }

  function clearTranscript() {
    $("transcript").textContent = "";
    $("partial").textContent = "";
    state.finals = [];
    state.says = [];
    state.partial = "";
    reply = null;
  }

  function enable(on) {
    $("new-conversation").disabled = !on;
    $("erase").disabled = !on;
  }

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  // -- audio out ---------------------------------------------------------------------------------------
  function play(buffer) {
    if (!ctx) return;
    const pcm = new Int16Array(buffer);
    const audio = ctx.createBuffer(1, pcm.length, outRate);
    const channel = audio.getChannelData(0);
    for (let i = 0; i < pcm.length; i++) channel[i] = pcm[i] / 32768;
    const node = ctx.createBufferSource();
    node.buffer = audio;
    node.connect(ctx.destination);
    const start = Math.max(ctx.currentTime + 0.03, nextTime);
    node.start(start);
    nextTime = start + audio.duration;
    playing.add(node);
    node.onended = () => {
      playing.delete(node);
      if (!node.cut) state.playedMs += audio.duration * 1000;
    };
    state.audioBytes += buffer.byteLength;
    state.scheduledMs += audio.duration * 1000;
  }

  function stopAudio() {
    for (const node of playing) {
      node.cut = true;
      try { node.stop(); } catch (_) { /* already ended */ }
    }
    playing.clear();
    nextTime = 0;
  }

  // -- audio in ----------------------------------------------------------------------------------------
  async function startMicrophone() {
    ctx = new AudioContext({ latencyHint: "interactive" });
    await ctx.audioWorklet.addModule("/static/mic-worklet.js");
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    });
    const source = ctx.createMediaStreamSource(stream);
    const mic = new AudioWorkletNode(ctx, "mic-downsampler", {
      processorOptions: { targetRate: 16000, frameSamples: 512 },
    });
    mic.port.onmessage = (event) => {
      if (ws && ws.readyState === WebSocket.OPEN && state.ready) {
        ws.send(event.data);
        state.micFrames += 1;
      }
    };
    const silent = ctx.createGain(); // keeps the worklet pulled without playing the mic back
    silent.gain.value = 0;
    source.connect(mic);
    mic.connect(silent);
    silent.connect(ctx.destination);
    await ctx.resume();
  }

  // -- protocol ----------------------------------------------------------------------------------------
  function onReady(msg) {
    state.ready = msg;
    if (msg.returning) pinFor = "";
    outRate = msg.audio_out.sample_rate_hz;
    const days = msg.privacy.retention_days;
    $("retention").textContent = days === 1 ? "1 day" : days + " days";
    $("idle").textContent = Math.round(msg.privacy.idle_timeout_s) + " seconds of silence";
    onVisit(msg.conversation);
    enable(true);
  }

  function onVisit(conversation) {
    state.conversation = conversation;
    state.visits += 1;
    $("conversation").textContent = "conversation " + conversation;
    clearTranscript();
  }

  const handlers = {
    ready: onReady,
    status: (m) => setStatus(m.state),
    speech_start: () => { $("partial").textContent = "…"; },
    partial: (m) => { state.partial = m.text; $("partial").textContent = m.text; },
    final: (m) => {
      state.finals.push(m.text);
      $("partial").textContent = "";
      addTurn("user", m.text);
      reply = null;
    },
    say: (m) => {
      state.says.push(m.text);
      if (!reply) reply = addTurn("assistant", m.text);
      else reply.textContent += " " + m.text;
    },
    audio_stop: () => stopAudio(),
    barge_in: () => { state.barges += 1; if (reply) reply.classList.add("interrupted"); },
    turn_done: (m) => {
      state.turnsDone += 1;
      if (reply && m.interrupted) reply.classList.add("interrupted");
      reply = null;
    },
    visit_ended: () => { user = ""; badge = ""; stopAudio(); clearTranscript(); },
    visit_started: (m) => { if (m.returning) pinFor = ""; onVisit(m.conversation); },
    erased: (m) => { state.erased += 1; notice("Erased " + m.records + " remembered items from this conversation."); },
    error: (m) => {
      state.errors.push(m.code);
      notice(m.message);
      if (m.code !== "pin_required" && m.code !== "identity_refused") pinFor = "";
    },
    pong: () => {},
  };

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(scheme + "//" + location.host + "/ws");
    ws.binaryType = "arraybuffer";
    ws.onopen = () => {
      retryMs = 500;
      const hello = { type: "hello", protocol: 1 };
      if (token) hello.token = token;
      if (badge) hello.badge = badge;
      else if (user) hello.user = user;
      pinFor = user;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (event) => {
      if (typeof event.data === "string") {
        const msg = JSON.parse(event.data);
        const handler = handlers[msg.type];
        if (handler) handler(msg);
      } else {
        play(event.data);
      }
    };
    ws.onclose = () => {
      state.ready = null;
      enable(false);
      stopAudio();
      setStatus("offline");
      setTimeout(connect, retryMs); // an unattended kiosk reconnects on its own
      retryMs = Math.min(retryMs * 2, 10000);
    };
  }

  $("new-conversation").addEventListener("click", () => {
    user = "";
    stopAudio();
    clearTranscript();
    send({ type: "new_conversation" });
  });
  $("erase").addEventListener("click", () => {
    stopAudio();
    clearTranscript();
    send({ type: "erase" });
  });
  // A badge or QR reader acting as a keyboard types the id quickly, then Enter: that visitor's own
  // conversation (a fresh hello; the server hashes the id, and ends the visit after the idle time).
  let typed = "";
  let typedAt = 0;
  document.addEventListener("keydown", (event) => {
    const now = performance.now();
    if (now - typedAt > (pinFor ? 10000 : 300)) typed = ""; // a PIN is typed by hand, slowly
    typedAt = now;
    if (event.key === "Enter") {
      const pin = /^[0-9]{4,12}$/.test(typed) && pinFor ? typed : "";
      if (typed.length >= 4 && state.ready) {
        stopAudio();
        const hello = { type: "hello", protocol: 1, token: token || undefined };
        if (pin) Object.assign(hello, { user: pinFor, pin: pin });
        else if (typed.startsWith("vab1.")) hello.badge = typed; // a signed badge token
        else hello.user = typed; // a badge id: the server asks for its PIN
        pinFor = hello.badge ? "" : hello.user; // kept until the server says "returning"
        send(hello);
      }
      typed = "";
    } else if (event.key.length === 1) {
      typed += event.key;
    }
  });

  $("start-button").addEventListener("click", async () => {
    try {
      await startMicrophone();
      $("start").classList.add("hidden");
    } catch (err) {
      notice("Microphone unavailable: " + err.message);
    }
  });

  connect();
})();
