// SPDX-License-Identifier: MIT
// app.js — the page: the engine (steer-web.wasm, web/web.c) runs a demo
// in real time on one thread; each frame is drawn with Canvas 2D from the
// numbers web_frame() hands out (agents, shapes, paths and the scenario's
// own draw(d, w)), in the viewer's colours. The editor holds the
// scenario's source: Ctrl+Enter (or Ctrl+S, or the reload button) writes
// it over the scenario's file in the module's memory and runs the engine's
// hot-reload transaction, as `steer run` does when the file is saved:
// every agent stays, and a failing reload keeps the last good version
// running. A click selects an agent and shows the viewer's inspector text.
//
// ?demo=NAME picks the scenario; ?test=1&ticks=N is the suite's run
// (tools/web-check.sh): N ticks at once, the hash into #hash, then a
// reload, a broken reload and a click checked, their outcome as JSON in
// #test, the frame drawn and the page paused.
'use strict';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const BACKGROUND = 'rgb(22, 24, 31)';
// the viewer's colours (src/view/scene.c): tags named after a colour, else a palette in order of first use
const PALETTE = ['#78c8ff', '#ffaa3c', '#78e678', '#ff646e', '#c88cff', '#fae65a', '#5adcd2', '#ff8cc8'];
const NAMED = {
  red: '#ff5f50', blue: '#5aa0ff', green: '#6edc6e', yellow: '#fae150', orange: '#ffa53c', purple: '#be82ff',
  cyan: '#5ae1e1', pink: '#ff8cc8', white: '#f0f0f0', grey: '#a0a5af', gray: '#a0a5af',
};
const UNTAGGED = '#d7dce6';

function log(text, cls) {
  const el = $('log');
  const line = document.createElement('div');
  line.textContent = text;
  if (cls) line.className = cls;
  el.appendChild(line);
  while (el.childNodes.length > 300) el.removeChild(el.firstChild);
  el.scrollTop = el.scrollHeight;
}

SteerWeb({ print: (t) => log(t), printErr: (t) => log(t, 'error') }).then(start, (e) => log(String(e), 'error'));

function start(m) {
  const api = {
    load: m.cwrap('web_load', 'number', ['string']),
    tick: m.cwrap('web_tick', 'number', ['number']),
    reload: m.cwrap('web_reload', 'number', []),
    error: m.cwrap('web_error', 'string', []),
    hash: m.cwrap('web_hash', 'string', []),
    ticks: m.cwrap('web_ticks', 'number', []),
    dt: m.cwrap('web_dt', 'number', []),
    count: m.cwrap('web_count', 'number', []),
    frame: m.cwrap('web_frame', 'number', []),
    frameLen: m.cwrap('web_frame_len', 'number', []),
    tagName: m.cwrap('web_tag_name', 'string', ['number']),
    select: m.cwrap('web_select', 'number', ['number', 'number', 'number']),
    inspect: m.cwrap('web_inspect', 'string', []),
  };
  const canvas = $('canvas');
  const ctx = canvas.getContext('2d');
  const editor = $('editor');
  const state = { file: null, stopped: false, paused: false, cam: null, tagColours: {}, selected: false, last: 0, acc: 0 };

  const demos = m.FS.readdir('/demos').filter((f) => f.endsWith('.lua')).map((f) => f.slice(0, -4)).sort();
  for (const d of demos) $('demo').add(new Option(d, d));
  const first = demos.includes(params.get('demo')) ? params.get('demo') : demos.includes('flock') ? 'flock' : demos[0];
  $('demo').value = first;

  function load(name) {
    state.file = `/demos/${name}.lua`;
    editor.value = m.FS.readFile(state.file, { encoding: 'utf8' });
    state.cam = null;
    state.tagColours = {};
    state.selected = false;
    $('inspector').hidden = true;
    const ok = api.load(state.file) === 0;
    state.stopped = !ok;
    if (ok) log(`loaded ${state.file}: ${api.count()} agents`, 'ok');
    else log(`load failed: ${api.error()}`, 'error');
    return ok;
  }

  // The editor's text over the scenario's file, then the engine's reload.
  function reload() {
    m.FS.writeFile(state.file, editor.value);
    const before = api.count();
    if (api.reload() === 0) {
      log(`reload ok: ${api.count()} agents (${before} before), tick ${api.ticks()}`, 'ok');
      state.stopped = false;
      return true;
    }
    // the engine's log has said why (FILE:LINE: MESSAGE)
    log(`the last good version runs on, tick ${api.ticks()}`, 'error');
    return false;
  }

  function tick(n) {
    if (api.tick(n) === 0) return true;
    log(`${api.error()}\nstopped at tick ${api.ticks()}: fix the scenario and reload`, 'error');
    state.stopped = true;
    return false;
  }

  function tagColour(tag) {
    if (tag <= 0) return UNTAGGED;
    if (!(tag in state.tagColours)) {
      const name = api.tagName(tag);
      state.tagColours[tag] = NAMED[name] || PALETTE[(tag - 1) % PALETTE.length];
    }
    return state.tagColours[tag];
  }

  function rgba(c) {
    return `rgba(${(c >>> 24) & 255}, ${(c >>> 16) & 255}, ${(c >>> 8) & 255}, ${(c & 255) / 255})`;
  }

  function draw() {
    const dpr = window.devicePixelRatio || 1;
    const W = Math.max(1, Math.round(canvas.clientWidth * dpr));
    const H = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== W || canvas.height !== H) {
      canvas.width = W;
      canvas.height = H;
    }
    const ptr = api.frame();
    const f = m.HEAPF64.subarray(ptr / 8, ptr / 8 + api.frameLen());
    ctx.fillStyle = BACKGROUND;
    ctx.fillRect(0, 0, W, H);
    if (f.length < 7) return;
    // the camera fits the world's box at the first frame after a load, as the viewer's does
    if (!state.cam) {
      const [lox, loy, hix, hiy] = [f[1], f[2], f[3], f[4]];
      state.cam = { cx: (lox + hix) / 2, cy: (loy + hiy) / 2, w: hix - lox, h: hiy - loy };
    }
    const cam = state.cam;
    const scale = 0.92 * Math.min(W / cam.w, H / cam.h);
    state.scale = scale;
    const sx = (x) => W / 2 + (x - cam.cx) * scale;
    const sy = (y) => H / 2 - (y - cam.cy) * scale;
    const selected = f[5];
    let i = 7;
    let entry = 0;
    let selectedAt = null;
    while (i < f.length) {
      const kind = f[i];
      if (kind === 1) { // agent
        const [x, y, hx, hy0, r, tag] = [f[i + 1], f[i + 2], f[i + 3], f[i + 4], f[i + 5], f[i + 6]];
        const hy = -hy0; // screen y points down
        const px = sx(x), py = sy(y), s = Math.max(r * scale, 4.5 * dpr);
        const nose = 1.6 * s, back = 0.9 * s, wing = 0.85 * s;
        ctx.fillStyle = tagColour(tag);
        ctx.beginPath();
        ctx.moveTo(px + hx * nose, py + hy * nose);
        ctx.lineTo(px - hx * back - hy * wing, py - hy * back + hx * wing);
        ctx.lineTo(px - hx * back + hy * wing, py - hy * back - hx * wing);
        ctx.fill();
        if (entry === selected) selectedAt = [px, py, Math.max(r * scale * 2.2, 9 * dpr)];
        entry++;
        i += 7;
      } else if (kind === 2) { // circle shape
        ctx.fillStyle = 'rgba(70, 76, 96, 0.6)';
        ctx.strokeStyle = 'rgb(140, 150, 180)';
        ctx.lineWidth = 1.5 * dpr;
        ctx.beginPath();
        ctx.arc(sx(f[i + 1]), sy(f[i + 2]), f[i + 3] * scale, 0, 2 * Math.PI);
        ctx.fill();
        ctx.stroke();
        i += 4;
      } else if (kind === 3) { // segment (a wall)
        ctx.strokeStyle = 'rgb(190, 195, 210)';
        ctx.lineWidth = 3 * dpr;
        ctx.beginPath();
        ctx.moveTo(sx(f[i + 1]), sy(f[i + 2]));
        ctx.lineTo(sx(f[i + 3]), sy(f[i + 4]));
        ctx.stroke();
        i += 5;
      } else if (kind === 5) { // box
        const x0 = sx(f[i + 1]), y0 = sy(f[i + 2]), x1 = sx(f[i + 3]), y1 = sy(f[i + 4]);
        ctx.fillStyle = 'rgba(70, 76, 96, 0.6)';
        ctx.fillRect(x0, y1, x1 - x0, y0 - y1);
        ctx.strokeStyle = 'rgb(140, 150, 180)';
        ctx.lineWidth = 1.5 * dpr;
        ctx.strokeRect(x0, y1, x1 - x0, y0 - y1);
        i += 5;
      } else if (kind === 4) { // a brain's path or patrol route
        const n = f[i + 1];
        ctx.strokeStyle = 'rgba(255, 230, 120, 0.35)';
        ctx.lineWidth = 1.5 * dpr;
        ctx.beginPath();
        for (let k = 0; k < n; k++) {
          const x = sx(f[i + 2 + 2 * k]), y = sy(f[i + 3 + 2 * k]);
          if (k === 0) ctx.moveTo(x, y);
          else ctx.lineTo(x, y);
        }
        ctx.stroke();
        i += 2 + 2 * n;
      } else if (kind === 6) { // the scenario's draw(d, w)
        drawCommand(f, i, sx, sy, scale, dpr);
        i += 9;
      } else {
        break;
      }
    }
    if (selectedAt) {
      ctx.strokeStyle = 'rgb(255, 230, 120)';
      ctx.lineWidth = 2 * dpr;
      ctx.beginPath();
      ctx.arc(selectedAt[0], selectedAt[1], selectedAt[2], 0, 2 * Math.PI);
      ctx.stroke();
    }
    if (state.selected) {
      const text = api.inspect();
      const panel = $('inspector');
      panel.textContent = text;
      panel.hidden = !text;
      if (!text) state.selected = false;
      // at the top right, or the bottom right when it would cover the agent there
      if (selectedAt && text) {
        const x = selectedAt[0] / dpr, y = selectedAt[1] / dpr, w = panel.offsetWidth + 20, h = panel.offsetHeight + 20;
        const covers = x > canvas.clientWidth - w && y < h;
        if (covers !== panel.classList.contains('bottom')) panel.classList.toggle('bottom', covers);
      }
    }
    status();
  }

  function status() {
    $('status').textContent = `tick ${api.ticks()}  ${api.count()} agents  hash ${api.hash()}` +
      (state.stopped ? '  STOPPED' : state.paused ? '  paused' : '');
  }

  function drawCommand(f, i, sx, sy, scale, dpr) {
    const kind = f[i + 1], colour = rgba(f[i + 2]);
    const ax = sx(f[i + 3]), ay = sy(f[i + 4]), bx = sx(f[i + 5]), by = sy(f[i + 6]);
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    if (kind === 1 || kind === 2) { // line, arrow
      ctx.lineWidth = (kind === 2 ? 2 : 1.5) * dpr;
      ctx.beginPath();
      ctx.moveTo(ax, ay);
      ctx.lineTo(bx, by);
      ctx.stroke();
      if (kind === 2) {
        const a = Math.atan2(by - ay, bx - ax), h = 7 * dpr;
        ctx.beginPath();
        ctx.moveTo(bx, by);
        ctx.lineTo(bx - h * Math.cos(a - 0.45), by - h * Math.sin(a - 0.45));
        ctx.lineTo(bx - h * Math.cos(a + 0.45), by - h * Math.sin(a + 0.45));
        ctx.fill();
      }
    } else if (kind === 3) { // circle
      ctx.lineWidth = 1.5 * dpr;
      ctx.beginPath();
      ctx.arc(ax, ay, f[i + 7] * scale, 0, 2 * Math.PI);
      ctx.stroke();
    } else if (kind === 4) { // point
      ctx.beginPath();
      ctx.arc(ax, ay, 3 * dpr, 0, 2 * Math.PI);
      ctx.fill();
    } else if (kind === 5 && f[i + 8]) { // text, with a dark halo as the viewer's labels
      ctx.font = `${13 * dpr}px ui-monospace, monospace`;
      ctx.lineWidth = 3 * dpr;
      ctx.strokeStyle = BACKGROUND;
      const text = m.UTF8ToString(f[i + 8]);
      ctx.strokeText(text, ax, ay);
      ctx.fillText(text, ax, ay);
    }
  }

  // A click: the agent under it (within 8 pixels) is inspected.
  canvas.addEventListener('click', (ev) => {
    if (!state.cam) return;
    const dpr = window.devicePixelRatio || 1;
    const r = canvas.getBoundingClientRect();
    const px = (ev.clientX - r.left) * dpr, py = (ev.clientY - r.top) * dpr;
    const x = state.cam.cx + (px - canvas.width / 2) / state.scale;
    const y = state.cam.cy - (py - canvas.height / 2) / state.scale;
    state.selected = api.select(x, y, (8 * dpr) / state.scale) === 1;
    if (!state.selected) $('inspector').hidden = true;
    draw();
  });

  // The simulation keeps to real time on a timer (the world's dt a tick,
  // at most 4 ticks to catch up); the drawing follows the display's frames.
  function step() {
    const t = performance.now();
    if (!state.paused && !state.stopped) {
      const dt = api.dt();
      state.acc += Math.min(0.25, (t - (state.last || t)) / 1000);
      let n = 0;
      while (state.acc >= dt && n < 4 && !state.stopped) {
        state.acc -= dt;
        tick(1);
        n++;
      }
      if (n === 4) state.acc = 0; // too far behind: start the schedule from now
    }
    state.last = t;
    status();
  }

  function frame() {
    draw();
    requestAnimationFrame(frame);
  }

  function setPaused(p) {
    state.paused = p;
    $('pause').textContent = p ? 'run' : 'pause';
  }

  $('demo').addEventListener('change', () => load($('demo').value));
  $('restart').addEventListener('click', () => load($('demo').value) || null);
  $('reload').addEventListener('click', reload);
  $('pause').addEventListener('click', () => setPaused(!state.paused));
  editor.addEventListener('keydown', (ev) => {
    if ((ev.ctrlKey || ev.metaKey) && (ev.key === 'Enter' || ev.key === 's')) {
      ev.preventDefault();
      reload();
    }
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.target !== editor && ev.key === ' ') {
      ev.preventDefault();
      setPaused(!state.paused);
    }
  });

  load(first);
  if (params.get('test')) {
    runTest(Number(params.get('ticks') || 600));
    setPaused(true);
    draw();
    document.title = 'steer: test done';
    return;
  }
  setInterval(step, 1000 / 120);
  requestAnimationFrame(frame);

  // The suite's checks (tools/web-check.sh reads #hash and #test).
  function runTest(ticks) {
    const result = { demo: $('demo').value, ticks, checks: {} };
    const check = (name, ok, detail) => { result.checks[name] = { ok: !!ok, detail: String(detail) }; };
    tick(ticks);
    result.hash = api.hash();
    $('hash').textContent = `${result.demo} ${ticks} ${result.hash}`;
    const source = editor.value;
    const agents = api.count();
    // a reload keeps every agent and the world's tick, and the reloaded version runs
    editor.value = `${source}\n-- edited in the browser\n`;
    const reloaded = reload();
    check('reload', reloaded && api.count() === agents && api.ticks() === ticks && tick(30),
      `${api.count()} agents after, ${agents} before, tick ${api.ticks()}`);
    // a broken edit: the reload fails naming the file and line, the last good version runs on
    editor.value = `${source}\nlocal = 1\n`;
    const broken = !reload();
    const err = api.error();
    check('reload_error', broken && err.includes(`${state.file}:`) && api.count() === agents && tick(30), err.split('\n')[0]);
    editor.value = source;
    reload();
    tick(1); // the brains' nodes record their forces again
    // a click on an agent shows the inspector's text
    draw();
    const ptr = api.frame();
    const f = m.HEAPF64.subarray(ptr / 8, ptr / 8 + api.frameLen());
    let at = 7;
    while (at < f.length && f[at] !== 1) at += f[at] === 2 ? 4 : f[at] === 4 ? 2 + 2 * f[at + 1] : f[at] === 6 ? 9 : 5;
    const x = f[at + 1], y = f[at + 2];
    const dpr = window.devicePixelRatio || 1;
    const r = canvas.getBoundingClientRect();
    canvas.dispatchEvent(new MouseEvent('click', {
      clientX: r.left + (canvas.width / 2 + (x - state.cam.cx) * state.scale) / dpr,
      clientY: r.top + (canvas.height / 2 - (y - state.cam.cy) * state.scale) / dpr,
    }));
    const text = $('inspector').textContent;
    check('inspect', state.selected && text.startsWith('agent #') && text.includes('brain'), text.split('\n')[0]);
    result.ok = Object.values(result.checks).every((c) => c.ok);
    $('test').textContent = JSON.stringify(result);
  }
}
