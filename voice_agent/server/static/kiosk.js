// The kiosk page: microphone → WebSocket (PCM16 16 kHz frames from an AudioWorklet), replies ← WebSocket
// (PCM16 at the announced rate, scheduled back to back), and the protocol's events on screen.
// Optional URL fragment: #token=...&badge=... (a signed badge token; a fragment never reaches server logs).
// What a visitor sees: one state banner (icon + word + border shape), the transcript as a live log, and a
// privacy notice worded (kiosk-text.js) from the facts the server serves at /privacy.
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
    shown: "connecting", language: null, privacy: null, micOn: false, failed: null,
  });

  const { TEXTS, pickLanguage, privacyFacts } = window.KioskText;
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  let texts = TEXTS[pickLanguage("auto", navigator.languages)];

  let ctx = null;
  let ws = null;
  let outRate = 22050;
  let nextTime = 0;
  let reply = null; // the element of the reply being spoken
  let retryMs = 500;
  const playing = new Set();

  // -- what the visitor sees ----------------------------------------------------------------------------
  // The banner shows the first that holds: a failure (error), no connection (offline / connecting), the
  // microphone not started yet (idle), a reply still playing here (speaking: the server may be done
  // sending it), else the server's own state (listening / thinking / speaking).
  function shownState() {
    if (state.failed) return "error";
    if (!state.ready) return state.status === "offline" ? "offline" : "connecting";
    if (!state.micOn) return "idle";
    if (playing.size > 0) return "speaking";
    return texts.states[state.status] ? state.status : "listening";
  }

  function render() {
    const shown = shownState();
    state.shown = shown;
    const [word, usual] = texts.states[shown];
    const hint = shown === "error" ? state.failed : usual;
    $("status").dataset.state = shown;
    $("status-use").setAttribute("href", "#icon-" + shown);
    $("status-word").textContent = word;
    $("status-hint").textContent = hint;
    $("start").hidden = state.micOn || !state.ready; // nothing to start without a connection
  }

  function setStatus(value) {
    state.status = value;
    render();
  }

  function notice(text) {
    $("notice").textContent = text;
  }

  function fail(text) {
    state.failed = text; // the banner says it (its role=status region announces it)
    notice("");
    render();
  }

  function applyLanguage(language) {
    texts = TEXTS[language];
    state.language = language;
    document.documentElement.lang = language === "zh" ? "zh-Hans" : "en";
    document.title = texts.title;
    for (const el of document.querySelectorAll("[data-text]")) el.textContent = texts[el.dataset.text];
    $("transcript").setAttribute("aria-label", texts.transcript);
    for (const label of document.querySelectorAll("[data-who]")) label.textContent = texts[label.dataset.who];
    showPrivacy();
    render();
  }

  function showPrivacy() {
    if (!state.privacy) return;
    const list = $("privacy-facts");
    list.textContent = "";
    for (const line of privacyFacts(texts, state.privacy)) {
      const item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    }
  }

  async function loadPrivacy() {
    try {
      const response = await fetch("/privacy", { cache: "no-store" });
      if (!response.ok) return;
      state.privacy = await response.json();
      applyLanguage(pickLanguage(state.privacy.page_language, navigator.languages));
    } catch (_) {
      /* offline: the notice is fetched again on the next connection */
    }
  }

  function addTurn(role, text) {
    const el = document.createElement("div");
    el.className = "turn " + role;
    const who = document.createElement("span");
    who.className = "turn-who";
    who.dataset.who = role === "user" ? "you" : "assistant";
    who.textContent = texts[who.dataset.who];
    const body = document.createElement("p");
    body.className = "turn-text";
    body.textContent = text;
    el.append(who, body);
    $("transcript").appendChild(el);
    el.scrollIntoView({ block: "end", behavior: reducedMotion.matches ? "auto" : "smooth" });
    return body;
  }

  function markInterrupted(body) {
    if (!body || body.nextElementSibling) return;
    const note = document.createElement("span");
    note.className = "turn-note";
    note.dataset.who = "interrupted";
    note.textContent = texts.interrupted;
    body.after(note);
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
      if (playing.size === 0) render();
    };
    if (playing.size === 1) render();
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
    render();
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
    state.failed = null;
    notice("");
    onVisit(msg.conversation);
    enable(true);
    render();
    loadPrivacy(); // the running configuration's facts, again after each (re)connection
  }

  function onVisit(conversation) {
    state.conversation = conversation;
    state.visits += 1;
    clearTranscript(); // the conversation id is never shown: nothing on screen identifies a visitor
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
    barge_in: () => { state.barges += 1; markInterrupted(reply); },
    turn_done: (m) => {
      state.turnsDone += 1;
      if (m.interrupted) markInterrupted(reply);
      reply = null;
    },
    visit_ended: () => { user = ""; badge = ""; stopAudio(); clearTranscript(); },
    visit_started: (m) => { if (m.returning) pinFor = ""; onVisit(m.conversation); },
    erased: (m) => { state.erased += 1; notice(texts.erased(m.records)); },
    error: (m) => {
      state.errors.push(m.code);
      // a visitor reads a plain sentence; the server's technical message stays in its logs
      const text = texts.errors[m.code] || (m.fatal ? texts.errors.fatal : texts.errors.other);
      if (m.fatal) fail(text);
      else notice(text);
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
      setStatus("offline"); // a fatal error stays on screen until the next connection is ready
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
      state.micOn = true;
      render();
    } catch (_) {
      fail(texts.micUnavailable);
    }
  });

  applyLanguage(state.language || pickLanguage("auto", navigator.languages));
  loadPrivacy();
  connect();
})();
