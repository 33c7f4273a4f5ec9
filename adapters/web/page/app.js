// The web board: draws a game the server sends, plays it through the
// server's API, and follows it live through the server's event stream.
"use strict";

const words = {
  en: {
    undo: "↩️ Undo", hint: "💡 Hint", resign: "🏳 Resign", rematch: "🔁 Rematch",
    hints: "Hints left: {0}", takebacks: "Takebacks: {0}", step: "Move {0}/{1}",
    signin: "Open this board from the chat: the link is missing or has expired.",
    failed: "The bot did not answer. Try again.", you: "you", forbidden: "forbidden",
    confirmResign: "Resign this game?",
  },
  zh: {
    undo: "↩️ 悔棋", hint: "💡 提示", resign: "🏳 认输", rematch: "🔁 再来一局",
    hints: "剩余提示：{0}", takebacks: "已悔棋：{0}", step: "第 {0}/{1} 手",
    signin: "请从聊天中打开棋盘：链接缺失或已过期。",
    failed: "机器人没有回应，请再试一次。", you: "你", forbidden: "禁手",
    confirmResign: "确定认输吗？",
  },
};

const launch = new URLSearchParams(location.hash.slice(1));
const query = new URLSearchParams(location.search);
const link = launch.get("t") || ""; // the link's token, if opened from one
let token = link; // the session's token
let renewal = 0; // the timer that renews it
let rejoined = false; // the event stream was refused and signed in again
let signing = null; // the sign-in on its way
let lang = (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
let locale = navigator.language || "en";
let game = null; // the latest state
let view = null; // the move number shown while replaying, null: live
let events = null;

const $ = (id) => document.getElementById(id);
const say = (key, ...args) => (words[lang][key] || words.en[key]).replace(/\{(\d)\}/g, (_, i) => args[i]);

function applyTheme() {
  let theme = null;
  try { theme = JSON.parse(launch.get("tgWebAppThemeParams") || "null"); } catch (e) { theme = null; }
  const tg = window.Telegram && window.Telegram.WebApp;
  if (!theme && tg && tg.themeParams && Object.keys(tg.themeParams).length) theme = tg.themeParams;
  if (!theme) {
    // The system's theme, as it changes: the "dark" class holds the
    // dark colours, the root's the light ones.
    const dark = matchMedia("(prefers-color-scheme: dark)");
    const follow = () => document.documentElement.classList.toggle("dark", dark.matches);
    follow();
    dark.addEventListener("change", follow);
    return;
  }
  const root = document.documentElement.style;
  const set = (v, c) => { if (c) root.setProperty(v, c); };
  set("--bg", theme.bg_color);
  set("--fg", theme.text_color);
  set("--muted", theme.hint_color);
  set("--accent", theme.button_color);
  set("--button", theme.secondary_bg_color);
  set("--button-fg", theme.text_color);
  if (theme.bg_color && isDark(theme.bg_color)) document.documentElement.classList.add("dark");
}

function isDark(hex) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return false;
  const [r, g, b] = m.slice(1).map((x) => parseInt(x, 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 128;
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: Object.assign({ "Content-Type": "application/json" }, token ? { Authorization: "Bearer " + token } : {}),
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(data.error || res.statusText), { status: res.status });
  return data;
}

// signIn gets a session token: from a Mini App's initData, or by renewing
// the one held. When that one ran out (a phone asleep past its life), the
// link that opened the page signs in again, to the game shown. Calls made
// while one is on its way (a refused move and a refused event stream at
// once) share it.
function signIn() {
  if (!signing) signing = signInOnce().finally(() => { signing = null; });
  return signing;
}

async function signInOnce() {
  const tg = window.Telegram && window.Telegram.WebApp;
  const initData = launch.get("tgWebAppData") || (tg && tg.initData) || "";
  const want = (game && game.game) || query.get("game") || "";
  let ans;
  if (initData) {
    ans = await api("POST", "/api/session", { initData, game: want });
    const user = new URLSearchParams(initData).get("user");
    try { locale = JSON.parse(user).language_code || locale; } catch (e) { /* keep the browser's */ }
  } else if (token) {
    try {
      ans = await api("POST", "/api/session", { token });
    } catch (e) {
      if (e.status !== 401 || !link || token === link) throw e;
      token = link;
      ans = await api("POST", "/api/session", { token, game: want });
    }
  } else {
    throw Object.assign(new Error("no sign-in"), { status: 401 });
  }
  token = ans.token;
  // Renew well before it expires, for as long as the page is open.
  const ms = Math.max(10000, (ans.expires * 1000 - Date.now()) / 2);
  clearTimeout(renewal);
  renewal = setTimeout(() => signIn().then(follow).catch(() => {}), ms);
  if (tg && tg.ready) tg.ready();
}

// call makes an API call; refused for want of a sign-in (the session ran
// out), it signs in again and makes it once more, the same call (an
// action keeps its nonce, so it happens once).
async function call(method, path, body) {
  try {
    return await api(method, path, body);
  } catch (e) {
    if (e.status !== 401) throw e;
    await signIn();
    follow();
    return api(method, path, body);
  }
}

function follow() {
  if (events) events.close();
  events = new EventSource("/api/events?t=" + encodeURIComponent(token) + "&locale=" + encodeURIComponent(locale));
  events.addEventListener("state", (e) => {
    rejoined = false;
    show(JSON.parse(e.data));
  });
  // A stream refused (it does not reconnect by itself): sign in again,
  // once until it delivers.
  events.addEventListener("error", () => {
    if (events.readyState !== EventSource.CLOSED) return;
    if (rejoined) {
      notice(say("signin"));
      return;
    }
    rejoined = true;
    signIn().then(follow).catch(() => notice(say("signin")));
  });
}

function nonce() {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function act(kind, extra) {
  if (!game) return;
  notice("");
  try {
    const ans = await call("POST", "/api/act", Object.assign({ kind, moveNo: game.moves.length, nonce: nonce(), locale }, extra || {}));
    if (ans.notices && ans.notices.length) notice(ans.notices.join("\n"));
    show(ans.state);
  } catch (e) {
    notice(e.status === 401 ? say("signin") : say("failed"));
  }
}

function notice(text) {
  const n = $("notice");
  n.textContent = text;
  n.hidden = !text;
}

// show takes a new state of the game, if it is not older than the one
// shown, and draws it.
function show(s) {
  if (game && s.game === game.game && s.version < game.version) return;
  if (!game || s.game !== game.game || s.moves.length !== game.moves.length) view = null;
  game = s;
  lang = s.lang || lang;
  document.documentElement.lang = lang;
  draw();
}

// boardCells returns the board's cells, row by row, building the grid
// anew only when the board's shape changed. A redraw (a state from the
// event stream) keeps the cells, so that a tap under way when it comes
// still lands: a button taken out between press and release is not
// clicked.
let shape = ""; // the shape the cells were built for
let built = []; // those cells
function boardCells(s) {
  const board = $("board");
  const want = [s.width, s.height, s.rows.join(), s.columns.join()].join("|");
  if (want === shape) return built;
  shape = want;
  built = [];
  board.style.gridTemplateColumns = "minmax(0, .6fr) repeat(" + s.width + ", minmax(0, 1fr))";
  board.replaceChildren();
  for (let y = 0; y < s.height; y++) {
    const label = document.createElement("div");
    label.className = "label";
    label.textContent = s.rows[y];
    board.append(label);
    for (let x = 0; x < s.width; x++) {
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "cell";
      if (x === 0) cell.classList.add("left");
      if (x === s.width - 1) cell.classList.add("right");
      if (y === 0) cell.classList.add("top");
      if (y === s.height - 1) cell.classList.add("bottom");
      cell.dataset.x = x;
      cell.dataset.y = y;
      cell.setAttribute("aria-label", s.columns[x].toLowerCase() + s.rows[y]);
      board.append(cell);
      built.push(cell);
    }
  }
  board.append(document.createElement("div"));
  for (let x = 0; x < s.width; x++) {
    const label = document.createElement("div");
    label.className = "label";
    label.textContent = s.columns[x];
    board.append(label);
  }
  return built;
}

function draw() {
  const s = game;
  const at = view === null ? s.moves.length : view;
  const stones = new Map();
  s.moves.slice(0, at).forEach((m, i) => stones.set(m[0] + "," + m[1], i % 2));
  const key = (c) => c[0] + "," + c[1];
  const win = new Set(view === null ? s.winLine.map(key) : []);
  const forbidden = new Set(view === null ? s.forbidden.map(key) : []);
  const last = at > 0 ? key(s.moves[at - 1]) : "";
  const mine = s.running && view === null && s.you === s.toMove;

  const board = $("board");
  board.className = s.marks;
  const cells = boardCells(s);
  for (let y = 0; y < s.height; y++) {
    for (let x = 0; x < s.width; x++) {
      const k = x + "," + y;
      const cell = cells[y * s.width + x];
      cell.classList.remove("forbidden", "hint");
      cell.replaceChildren();
      cell.title = "";
      if (stones.has(k)) {
        const st = document.createElement("span");
        st.className = "stone s" + stones.get(k);
        if (s.marks === "xo") st.textContent = stones.get(k) === 0 ? "✕" : "◯";
        if (k === last) st.classList.add("last");
        if (win.has(k)) st.classList.add("win");
        cell.append(st);
        cell.disabled = true;
        continue;
      }
      if (forbidden.has(k)) {
        cell.classList.add("forbidden");
        const m = document.createElement("span");
        m.className = "mark";
        m.textContent = "✕";
        cell.title = say("forbidden");
        cell.append(m);
      } else if (view === null && s.hint && s.hint[0] === x && s.hint[1] === y) {
        cell.classList.add("hint");
        const m = document.createElement("span");
        m.className = "mark";
        cell.append(m);
      }
      cell.disabled = !mine;
    }
  }

  for (const i of [0, 1]) {
    const p = $("p" + i);
    p.querySelector(".name").textContent = s.players[i].name + (s.you === i ? " (" + say("you") + ")" : "");
    p.querySelector(".mark").textContent = s.marks === "xo" ? (i === 0 ? "✕" : "◯") : (i === 0 ? "⚫" : "⚪");
    p.classList.toggle("turn", s.running && s.toMove === i);
  }
  $("status").textContent = s.status;
  $("counts").textContent = s.you >= 0 && s.running ? say("hints", s.hintsLeft) + " · " + say("takebacks", s.takebacks) : "";
  $("undo").textContent = say("undo");
  $("hint").textContent = say("hint");
  $("resign").textContent = say("resign");
  $("rematch").textContent = say("rematch");
  const playing = s.running && s.you >= 0;
  $("undo").hidden = $("hint").hidden = $("resign").hidden = !playing;
  $("undo").disabled = s.moves.length === 0;
  $("hint").disabled = !mine || s.hintsLeft === 0;
  $("rematch").hidden = s.running || s.you < 0;
  $("replay").hidden = s.running;
  $("step").textContent = say("step", at, s.moves.length);
}

function replayTo(n) {
  if (!game) return;
  view = Math.max(0, Math.min(game.moves.length, n));
  if (view === game.moves.length) view = null;
  draw();
}

async function rematch() {
  await act("rematch");
  if (game && game.rematch) {
    const ans = await api("POST", "/api/session", { token, game: game.rematch });
    token = ans.token;
    game = null;
    show(await api("GET", "/api/game?locale=" + encodeURIComponent(locale)));
    follow();
  }
}

function wire() {
  $("board").addEventListener("click", (e) => {
    const cell = e.target.closest(".cell");
    if (!cell || cell.disabled) return;
    act("place", { x: +cell.dataset.x, y: +cell.dataset.y });
  });
  $("undo").addEventListener("click", () => act("undo"));
  $("hint").addEventListener("click", () => act("hint"));
  $("resign").addEventListener("click", () => { if (confirm(say("confirmResign"))) act("resign"); });
  $("rematch").addEventListener("click", () => rematch().catch(() => notice(say("failed"))));
  $("first").addEventListener("click", () => replayTo(0));
  $("back").addEventListener("click", () => replayTo((view === null ? game.moves.length : view) - 1));
  $("forward").addEventListener("click", () => replayTo((view === null ? game.moves.length : view) + 1));
  $("last").addEventListener("click", () => replayTo(game.moves.length));
}

async function start() {
  applyTheme();
  wire();
  try {
    await signIn();
    show(await api("GET", "/api/game?locale=" + encodeURIComponent(locale)));
    follow();
  } catch (e) {
    $("app").hidden = true;
    const p = $("signin");
    p.textContent = say("signin");
    p.hidden = false;
  }
}

start();
