// Durak web front-end: the start page and the table. Plain JavaScript, no build step.
// The server sends this seat its own view and events only; every action goes back as text in
// the library's notation ("p1 beat 7h 9h") and is checked by the server.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);

  // ---------------------------------------------------------------- language
  // Every text comes from the library's message catalogs (GET /api/i18n): the page's words
  // (t, tn), and the events as the server describes them, code and parameters (say).
  const LANG_KEY = "durak:lang";
  let I18N = { lang: "en", languages: { en: "English" }, strings: {}, plurals: {}, templates: {},
    ranks: {}, suits: {}, seat: "player {n}", you: "you", ordinal: "" };
  let plural = new Intl.PluralRules("en");

  /** The language the page's address asks for (``?lang=pl``), or "". */
  function urlLang() {
    return new URLSearchParams(location.search).get("lang") || "";
  }

  /** ``path`` with the page's ``?lang=`` carried over, if its address has one. */
  function withLang(path) {
    const asked = urlLang();
    if (!asked) return path;
    return path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(asked);
  }

  async function loadLanguage() {
    // ?lang= in the page's address first, then the menu's remembered choice, then the browser's
    const asked = urlLang() || localStorage.getItem(LANG_KEY) || "";
    try {
      const answer = await fetch("/api/i18n" + (asked ? "?lang=" + encodeURIComponent(asked) : ""));
      if (answer.ok) I18N = await answer.json();
    } catch (e) { /* offline: English */ }
    plural = new Intl.PluralRules(I18N.lang);
    document.documentElement.lang = I18N.lang;
    for (const el of document.querySelectorAll("[data-i18n]")) {
      el.textContent = t(el.textContent.trim().replace(/\s+/g, " "));
    }
    for (const el of document.querySelectorAll("[data-i18n-html]")) {
      el.innerHTML = t(el.innerHTML.trim().replace(/\s+/g, " "));  // the catalog's own markup
    }
    for (const el of document.querySelectorAll("[data-i18n-label]")) {
      el.setAttribute("aria-label", t(el.getAttribute("aria-label")));
    }
    const menu = $("lang");
    menu.textContent = "";
    for (const [code, name] of Object.entries(I18N.languages)) {
      const opt = document.createElement("option");
      opt.value = code;
      opt.textContent = name;
      menu.append(opt);
    }
    menu.value = I18N.lang;
    menu.addEventListener("change", () => {
      localStorage.setItem(LANG_KEY, menu.value);  // remembered on this browser
      if (urlLang()) {
        const address = new URL(location.href);
        address.searchParams.set("lang", menu.value);
        location.href = address.href;
      } else {
        location.reload();
      }
    });
  }

  /** A text of the page in the chosen language; {name} fields filled from ``values``. */
  function t(text, values) {
    return fill(I18N.strings[text] || text, values || {});
  }

  /** The form of singular/plural for ``n`` (the language's plural rule), ``{n}`` filled in. */
  function tn(singular, pluralText, n, values) {
    const forms = I18N.plurals[singular];
    const form = forms ? forms[plural.select(n)] || forms.other : (n === 1 ? singular : pluralText);
    return fill(form, Object.assign({ n }, values || {}));
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
  }

  /** The page's language for the server: it answers errors and describes presets in it. */
  function langQuery(first) {
    return (first ? "?" : "&") + "lang=" + encodeURIComponent(I18N.lang);
  }

  /** What a seat kind is called in the page's language ("rule": "Rule bot", "Regelbot"). */
  function kindTitle(kind) {
    return {
      human: t("Person"), rule: t("Rule bot"), random: t("Random bot"), search: t("Search bot"),
      easy: t("Easy bot"), normal: t("Normal bot"), hard: t("Hard bot"), best: t("Best bot"),
    }[kind];
  }

  function capitalized(text) {
    return text ? text[0].toLocaleUpperCase(I18N.lang) + text.slice(1) : text;
  }

  /** A library message ({code, params}, durak.messages) in the chosen language, addressed to
   * this seat; the other seats named P1, P2 ... */
  function say(message) {
    let code = message.code;
    const params = message.params || {};
    if (code === "other") return String(params.text || "");
    if (params.player === ui.seat && ui.seat !== null && I18N.templates[code + ":you"]) code += ":you";
    else if (ui.seat !== null) {
      // "you" as the attack's new defender, the defender or a leaving partner: a text of its own
      const key = ["to", "partner", "defender"].find((k) => params[k] === ui.seat && I18N.templates[code + ":" + k + "-you"]);
      if (key) code += ":" + key + "-you";
    }
    const forms = I18N.templates[code];
    if (!forms) return "";
    const n = typeof params.n === "number" ? params.n : 1;
    const template = forms[plural.select(n)] || forms.other;
    const values = {};
    for (const [key, v] of Object.entries(params)) values[key] = sayValue(key, v);
    return fill(template, values);
  }

  const SEAT_PARAMS = ["player", "defender", "attacker", "to", "target", "partner"];

  function sayValue(key, v) {
    if (SEAT_PARAMS.includes(key)) return v === ui.seat ? I18N.you : "P" + v;
    if (key === "players") return v.map((p) => (p === ui.seat ? I18N.you : "P" + p)).join(", ");
    if (key === "place") return ordinal(v);
    if (key === "trump") return I18N.suits[v] || v;
    if (key === "rank") return I18N.ranks[v] || (v === "T" ? "10" : v);
    if (v && typeof v === "object" && !Array.isArray(v)) return say(v);
    if (Array.isArray(v)) return v.map(pretty).join(" ");
    if (typeof v === "string" && /^[2-9TJQKA][cdhs](#\d+)?$/.test(v)) return pretty(v);
    return String(v);
  }

  // ---------------------------------------------------------------- cards and actions
  const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
  const RANK_NAMES = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
  };
  const RANK_ORDER = "23456789TJQKA";

  const JOKER = "🃏";

  /** A card's parts from its text form ("Qh", "Td#2", "Jk", "Jk#2"). A joker has no suit. */
  function parseCard(text) {
    const [body, copy] = text.split("#");
    const joker = body === "Jk";
    return {
      text, joker, rank: joker ? "Jk" : body[0], suit: joker ? null : body[1],
      copy: copy ? Number(copy) : 1,
    };
  }

  /** "10♦", "Q♥" (the rank letters of the chosen language: "D♥" in German), "#2" for a
   * second copy. */
  function pretty(text) {
    const c = parseCard(text);
    const face = c.joker ? JOKER : rankText(c.rank) + SUITS[c.suit];
    return face + (c.copy > 1 ? "#" + c.copy : "");
  }

  function rankText(rank) {
    return rank === "T" ? "10" : I18N.ranks[rank] || rank;
  }

  /** Words for screen readers: "queen of hearts", "Herz-Dame". */
  function cardName(text) {
    const c = parseCard(text);
    let name = t("joker");
    if (!c.joker) {
      const rank = (I18N.rank_names || {})[c.rank] || RANK_NAMES[c.rank];
      const template = (I18N.card_names || {})[c.suit] || "{rank} of " + SUIT_NAMES[c.suit];
      name = fill(template, { rank });
    }
    if (c.copy > 1) name += " (" + t("copy {n}", { n: c.copy }) + ")";
    return name;
  }

  /** An action's text ("p1 beat 7h 9h") as { text, player, verb, cards }. */
  function parseAction(text) {
    const parts = text.trim().split(/\s+/);
    return { text, player: Number(parts[0].slice(1)), verb: parts[1], cards: parts.slice(2) };
  }

  /** The cards of the player's hand that an action uses. */
  function handCards(action) {
    if (action.verb === "beat") return [action.cards[1]];
    return action.cards;
  }

  function actionLabel(action) {
    const cards = action.cards.map(pretty).join(" ");
    switch (action.verb) {
      case "lead": return t("Lead {cards}", { cards });
      case "throw": return t("Throw in {cards}", { cards });
      case "beat": return t("Beat {attack} with {card}", { attack: pretty(action.cards[0]), card: pretty(action.cards[1]) });
      case "transfer": return t("Transfer with {cards}", { cards });
      case "show": return t("Show trump {cards} (transfer)", { cards });
      case "exchange": return t("Exchange {cards} for the trump card", { cards });
      case "take": return t("Take");
      case "pass": return t("Done");
      case "redeal": return t("Misdeal: redeal");
      case "catch": return t("Catch {cards}", { cards });
      default: return action.text.replace(/^p\d+\s+/, "");  // a house rule's kind: its notation
    }
  }

  /** Sort a hand for display: plain suits first (by suit, then rank), trumps last. */
  function sortHand(cards, trump) {
    const key = (t) => {
      const c = parseCard(t);
      if (c.joker) return 1000 + c.copy;  // jokers last
      const suitKey = c.suit === trump ? 9 : "cdhs".indexOf(c.suit);
      return suitKey * 100 + RANK_ORDER.indexOf(c.rank) * 4 + c.copy;
    };
    return [...cards].sort((a, b) => key(a) - key(b));
  }

  /** A card element: a button when it can be clicked, else an image with a text alternative. */
  function cardElement(text, opts = {}) {
    const c = parseCard(text);
    const el = document.createElement(opts.button ? "button" : "div");
    el.className = "card " + (c.joker ? "joker" : c.suit === "h" || c.suit === "d" ? "red" : "black");
    if (opts.small) el.classList.add("small");
    if (opts.button) el.type = "button";
    else el.setAttribute("role", "img");
    el.dataset.card = text;
    el.setAttribute("aria-label", opts.label || cardName(text));
    const rank = rankText(c.rank);
    const copy = c.copy > 1 ? `<span class="copy">${c.copy}</span>` : "";
    const suit = c.joker ? "" : SUITS[c.suit];
    const pip = c.joker ? JOKER : SUITS[c.suit];
    el.innerHTML =
      `<span class="corner" aria-hidden="true"><span class="rank">${c.joker ? "JK" : rank}</span>` +
      `<span class="suit">${suit}</span></span>` +
      `<span class="pip" aria-hidden="true">${pip}</span>${copy}`;
    return el;
  }

  /** A compact card in text ("10♣"), for the cards everyone knows a player holds. */
  function cardChip(text) {
    const c = parseCard(text);
    const el = document.createElement("span");
    el.className = "chip " + (c.joker ? "joker" : c.suit === "h" || c.suit === "d" ? "red" : "black");
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardName(text));
    el.dataset.card = text;
    el.textContent = pretty(text);
    return el;
  }

  function cardBack(label, small) {
    const el = document.createElement("div");
    el.className = "card back" + (small ? " small" : "");
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
    return el;
  }

  function toast(text) {
    const box = $("toast");
    box.textContent = text;
    box.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { box.hidden = true; }, 5000);
  }

  function ordinal(n) {
    if (I18N.ordinal) return fill(I18N.ordinal, { n });
    const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
    return n + s;
  }

  // ---------------------------------------------------------------- start page
  async function startPage() {
    $("start").hidden = false;
    document.title = t("Durak: start a table");
    const answer = await fetch("/api/presets" + langQuery(true));
    const data = await answer.json();
    const presets = data.presets;
    const presetSel = $("preset");
    for (const p of presets) {
      const opt = document.createElement("option");
      opt.value = p.name;
      opt.textContent = p.name;
      presetSel.append(opt);
    }
    // A seat holds a person, a bot of a strength level (durak.levels, weakest first) or a bot
    // by kind; the levels' descriptions show as the options' tooltips.
    const levels = data.levels || [];
    const groups = [
      ["", [["human", kindTitle("human"), ""]]],
      [t("Computer by level"), levels.map((l) => [l.name, kindTitle(l.name) || l.name, l.localized_description])],
      [t("Computer by kind"), ["rule", "random", "search"].map((k) => [k, kindTitle(k), ""])],
    ];
    const remembered = [];

    function seatRows() {
      const rows = $("seat-rows");
      rows.querySelectorAll("select").forEach((s, i) => { remembered[i] = s.value; });
      rows.textContent = "";
      const n = Number($("players").value);
      for (let i = 0; i < n; i++) {
        const row = document.createElement("div");
        row.className = "seat-row";
        const label = document.createElement("label");
        label.htmlFor = "seat-" + i;
        label.textContent = i === 0 ? t("Seat P{n} (you)", { n: i }) : t("Seat P{n}", { n: i });
        const sel = document.createElement("select");
        sel.id = "seat-" + i;
        for (const [label, kinds] of groups) {
          if (!kinds.length) continue;
          const group = label ? document.createElement("optgroup") : sel;
          if (label) {
            group.label = label;
            sel.append(group);
          }
          for (const [value, text, about] of kinds) {
            const opt = document.createElement("option");
            opt.value = value;
            opt.textContent = text;
            if (about) opt.title = about;
            group.append(opt);
          }
        }
        sel.value = remembered[i] || (i === 0 ? "human" : (levels.length ? "normal" : "rule"));
        row.append(label, sel);
        rows.append(row);
      }
    }

    /** The house-rule controls show the preset's own settings. */
    function settingsFromPreset(p) {
      const r = p.rules;
      $("deck-size").value = String(r.deck_size);
      $("throwers").value = r.throwers;
      $("transfer").checked = !!r.transfer_by_card;
      $("first-out").checked = r.objective === "first_out";
    }

    /** The settings that differ from the preset's (sent as "rules"). */
    function overrides(p) {
      const r = p.rules;
      const out = {};
      const deck = Number($("deck-size").value);
      if (deck !== r.deck_size) out.deck_size = deck;
      if ($("throwers").value !== r.throwers) out.throwers = $("throwers").value;
      if ($("transfer").checked !== !!r.transfer_by_card) out.transfer_by_card = $("transfer").checked;
      const objective = $("first-out").checked ? "first_out" : "durak";
      if (objective !== r.objective) out.objective = objective;
      return out;
    }

    function presetChanged() {
      const p = presets.find((x) => x.name === presetSel.value);
      // said in the page's language by the server, from the message catalogs
      $("preset-desc").textContent = (p.localized_description || p.description) + " (" +
        (p.localized_source || p.source) + ")";
      settingsFromPreset(p);
      const playersSel = $("players");
      const before = Number(playersSel.value) || p.default_players;
      playersSel.textContent = "";
      for (const n of p.players) {
        const opt = document.createElement("option");
        opt.value = String(n);
        opt.textContent = tn("{n} player", "{n} players", n);
        playersSel.append(opt);
      }
      playersSel.value = String(p.players.includes(before) ? before : p.default_players);
      seatRows();
    }

    /** The house rules ticked on the start page (R15), only those switched on. */
    function houseRules() {
      const out = {};
      const jokers = Number($("jokers").value);
      if (jokers) out.jokers = jokers;
      for (const name of ["throw_in_by_suit", "show_sends_back", "pogony", "cheating"]) {
        if ($(name).checked) out[name] = true;
      }
      return out;
    }

    presetSel.addEventListener("change", presetChanged);
    $("players").addEventListener("change", seatRows);
    presetChanged();

    $("new-table").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      $("start-error").textContent = "";
      const seats = [...$("seat-rows").querySelectorAll("select")].map((s) => s.value);
      const res = await fetch("/api/tables" + langQuery(true), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          preset: presetSel.value,
          seats,
          rules: { ...overrides(presets.find((x) => x.name === presetSel.value)), ...houseRules() },
          timer: Number($("timer").value),
        }),
      });
      const body = await res.json();
      if (!res.ok) {
        const said = body.localized || body.error;
        $("start-error").textContent = said ? capitalized(said) : t("Could not create the table.");
        return;
      }
      location.href = withLang(body.url);
    });
  }

  // ---------------------------------------------------------------- the table
  const ui = {
    tableId: null,
    socket: null,
    msg: null,           // the last "state" message
    seat: null,          // our seat (null: onlooker)
    log: [],             // event texts, newest last
    selected: null,      // hand card whose actions the chooser shows
    resultShown: null,   // "game/version" whose result dialog was closed
    retry: 0,
    keyFocus: null,      // the hand card that had keyboard focus before a re-render
  };

  function tokenKey() { return "durak:token:" + ui.tableId; }

  function connect() {
    const token = localStorage.getItem(tokenKey()) || "";
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${proto}//${location.host}/ws/${ui.tableId}?token=${encodeURIComponent(token)}` +
      langQuery(false);
    const socket = new WebSocket(url);
    ui.socket = socket;
    $("connection").textContent = t("connecting…");
    socket.onopen = () => { ui.retry = 0; $("connection").textContent = ""; };
    socket.onmessage = (ev) => onMessage(JSON.parse(ev.data));
    socket.onclose = (ev) => {
      if (ev.code === 4404) { showMissing(); return; }
      $("connection").textContent = t("offline: reconnecting…");
      ui.retry = Math.min(ui.retry + 1, 6);
      setTimeout(connect, 300 * ui.retry);
    };
  }

  function send(text) {
    if (!ui.socket || ui.socket.readyState !== WebSocket.OPEN) {
      toast(t("Not connected: wait a moment and try again."));
      return;
    }
    ui.socket.send(text);
  }

  function showMissing() {
    $("table").hidden = true;
    $("missing").hidden = false;
  }

  function onMessage(m) {
    if (m.type === "welcome") {
      ui.seat = m.seat;
      if (m.token) localStorage.setItem(tokenKey(), m.token);
      else localStorage.removeItem(tokenKey());
      if (m.seat === null) toast(t("Every seat is taken: you are watching this table."));
      return;
    }
    if (m.type === "error") {
      // a rule's refusal is said from its code and parameters, in the page's language; any
      // other refusal the server said in the page's language (the socket's lang)
      toast(m.reason ? capitalized(say(m.reason)) + " (" + m.rule + ")" : m.localized || m.message);
      return;
    }
    if (m.type !== "state") return;
    if (ui.msg && m.game !== ui.msg.game) {
      ui.log = [];
      ui.resultShown = null;
    }
    // The first message after (re)connecting carries the seat's part of the game so far.
    if (m.history) ui.log = m.history.map((e) => (e.message ? capitalized(say(e.message)) || e.text : e.text));
    for (const e of m.events) ui.log.push(e.message ? capitalized(say(e.message)) || e.text : e.text);
    if (ui.log.length > 60) ui.log = ui.log.slice(-60);
    if (m.events.length) ui.selected = null;
    ui.msg = m;
    render();
    document.body.dataset.version = m.game + "/" + m.version;
    document.body.dataset.seat = m.seat === null ? "" : String(m.seat);
    document.body.dataset.next = m.view.next_actor === null ? "" : String(m.view.next_actor);
  }

  function myActions() {
    const v = ui.msg.view;
    return (v.legal_actions || []).map(parseAction);
  }

  /** Actions that clicking a hand card can take (not the trump exchange: it has a button). */
  function cardActions(actions, card) {
    return actions.filter((a) => a.verb !== "exchange" && handCards(a).includes(card));
  }

  function seatLabel(seat) {
    return seat === ui.seat ? t("You") : "P" + seat;
  }

  function roleOf(v, seat) {
    if (v.places[seat] !== null && v.left.includes(seat)) {
      return t("left ({place} place)", { place: ordinal(v.places[seat]) });
    }
    if (v.places[seat] !== null) return t("out ({place} place)", { place: ordinal(v.places[seat]) });
    if (!v.active[seat]) return t("finished");
    if (seat === v.defender) return v.taken ? t("defender, takes") : t("defender");
    if (seat === v.attacker) return v.table.length ? t("attacker") : t("to lead");
    if (v.throwers.includes(seat)) return t("may throw in");
    return "";
  }

  function render() {
    const m = ui.msg;
    const v = m.view;
    const actions = myActions();
    const seats = m.seats;
    const acting = new Set(m.acting);
    document.title = t("Durak: table {table}", { table: m.table });
    $("table-title").textContent = m.preset + " · " + tn("{n} player", "{n} players", v.hand_sizes.length) +
      (m.game > 1 ? " · " + t("game {n}", { n: m.game }) : "");

    // Share link while seats are free.
    const free = seats.filter((s) => !s.taken).length;
    $("share").hidden = m.started;
    $("share-link").value = location.origin + "/table/" + m.table;
    $("share-text").textContent = free
      ? tn("Waiting for {n} more person. Share this link:", "Waiting for {n} more people. Share this link:", free)
      : t("Share this link:");

    const note = $("seed-note");
    note.hidden = m.fixed_seed === null || m.fixed_seed === undefined;
    note.textContent = note.hidden ? "" : t("fixed deal: seed {seed}", { seed: m.fixed_seed });
    const mineNow = actions.length ? actions[0].text : ui.seat === null ? "" : `p${ui.seat} take`;
    $("typed-action").placeholder = mineNow || t("you are watching");
    $("leave").hidden = ui.seat === null;

    renderOpponents(v, seats, acting);
    renderDeck(v);
    renderPairs(v, actions);
    renderStatus(m, v, actions, acting);
    renderHand(v, actions);
    renderButtons(v, actions, acting);
    renderChooser(actions);
    renderLog();
    renderResult(m, v);
  }

  function renderOpponents(v, seats, acting) {
    const box = $("opponents");
    box.textContent = "";
    // The others sit around the table in playing order (R2.2), from the seat after ours on
    // our left, round the far side, to the seat before ours on our right.
    const n = v.hand_sizes.length;
    const start = ui.seat === null ? 0 : ui.seat + 1;
    const others = n - (ui.seat === null ? 0 : 1);
    box.dataset.count = String(others);
    let place = 0;
    for (let k = 0; k < n; k++) {
      const seat = (start + k) % n;
      if (seat === ui.seat) continue;
      const info = seats[seat];
      const el = document.createElement("div");
      el.className = "opponent panel";
      // Seats at the ends of the row sit nearer to us, those in the middle across the table.
      const fromMiddle = Math.abs(place - (others - 1) / 2);
      el.dataset.arc = others >= 3 && fromMiddle >= (others - 1) / 2 ? "near" : "far";
      el.dataset.order = String(place + 1);
      place += 1;
      if (acting.has(seat)) el.classList.add("acting");
      if (v.places[seat] !== null || !v.active[seat]) el.classList.add("out");
      el.dataset.seat = String(seat);
      const count = v.hand_sizes[seat];
      const role = roleOf(v, seat);
      const teams = v.rules.teams || [];
      const partner = ui.seat !== null && teams.some((t) => t.includes(seat) && t.includes(ui.seat));
      const words = { partner: t("partner"), toAct: t("to act"), mayAct: t("may act"), done: t("done") };
      const status = info.away ? t("a bot plays for now")
        : info.kind === "human" && !info.taken ? t("free seat")
        : info.kind === "human" && !info.online ? t("offline") : "";
      el.innerHTML =
        `<div class="opp-head"><span class="opp-name">P${seat}</span>` +
        `<span class="opp-kind">${t(info.title)}</span>` +
        (partner ? `<span class="badge partner">${words.partner}</span>` : "") +
        (status ? `<span class="badge muted">${status}</span>` : "") + `</div>` +
        `<div class="opp-role">${role ? `<span class="badge">${role}</span>` : ""}` +
        (acting.has(seat) ? `<span class="badge turn">${seat === v.next_actor ? words.toAct : words.mayAct}</span>` : "") +
        (v.passed.includes(seat) ? `<span class="badge muted">${words.done}</span>` : "") + `</div>`;
      const fan = document.createElement("div");
      fan.className = "fan";
      fan.setAttribute("role", "img");
      fan.setAttribute("aria-label", "P" + seat + ": " + tn("{n} card", "{n} cards", count));
      for (let i = 0; i < Math.min(count, 8); i++) {
        const back = document.createElement("span");
        back.className = "mini-back";
        fan.append(back);
      }
      const num = document.createElement("span");
      num.className = "count";
      num.textContent = String(count);
      num.setAttribute("aria-hidden", "true");
      fan.append(num);
      el.append(fan);
      const known = v.known[seat] || [];
      if (known.length) {
        const k = document.createElement("div");
        k.className = "known";
        const label = document.createElement("span");
        label.className = "known-label";
        label.textContent = t("known: ").trim();
        k.append(label);
        for (const c of sortHand(known, v.trump)) k.append(cardChip(c));
        el.append(k);
      }
      box.append(el);
    }
  }

  function renderDeck(v) {
    const box = $("deck");
    box.textContent = "";
    const trumpName = I18N.suits[v.trump] || SUIT_NAMES[v.trump];
    const pile = document.createElement("div");
    pile.className = "pile";
    // The card that fixed trump lies face up under the stock unless it is in a hand, known to
    // all, or was played since: a stock of jokers alone has no face-up card (R15.1), as
    // PlayerView.face_up says.
    const held = v.trump_card && ((v.hand || []).includes(v.trump_card)
      || (v.known || []).some((cards) => (cards || []).includes(v.trump_card))
      || (v.discard || []).includes(v.trump_card)
      || (v.table || []).some((pair) => (pair || []).includes(v.trump_card)));
    const faceUp = v.stock_size > 0 && v.trump_card && !held;
    if (faceUp) {
      const tc = cardElement(v.trump_card, { label: t("face-up trump card: {card}", { card: cardName(v.trump_card) }) });
      tc.classList.add("trump-card");
      pile.append(tc);
    }
    if (v.stock_size > (faceUp ? 1 : 0)) pile.append(cardBack(t("Stock") + ": " + tn("{n} card", "{n} cards", v.stock_size)));
    box.append(pile);
    const facts = document.createElement("div");
    facts.className = "deck-facts";
    const red = v.trump === "h" || v.trump === "d" ? " red" : "";
    const words = { trump: t("Trump"), stock: t("Stock"), discard: t("Discard pile"), limit: t("Attack limit") };
    facts.innerHTML =
      `<div class="trump-suit${red}">${words.trump} <span aria-hidden="true">${SUITS[v.trump]}</span>` +
      `<span class="sr-only">${trumpName}</span></div>` +
      `<div>${words.stock}: <b id="stock-count">${v.stock_size}</b></div>` +
      `<div>${words.discard}: <b>${v.discard.length}</b></div>` +
      `<div class="limit">${words.limit}: ${v.table.length ? v.attack_limit : "–"}</div>`;
    box.append(facts);
  }

  function renderPairs(v, actions) {
    const box = $("pairs");
    box.textContent = "";
    const targets = new Map();
    if (ui.selected) {
      for (const a of cardActions(actions, ui.selected)) {
        if (a.verb === "beat") targets.set(a.cards[0], a);
      }
    }
    if (!v.table.length) {
      const empty = document.createElement("p");
      empty.className = "empty";
      empty.textContent = v.result ? "" : t("The table is empty.");
      box.append(empty);
    }
    const catches = new Map(actions.filter((a) => a.verb === "catch").map((a) => [a.cards[0], a]));
    /** R15.5: a Catch button on a table card that is a cheat this seat may catch. */
    const catchButton = (card) => {
      const act = catches.get(card);
      if (!act) return null;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "catch";
      b.dataset.action = act.text;
      b.textContent = t("Catch");
      b.setAttribute("aria-label", t("catch the cheat {card}", { card: cardName(card) }));
      b.addEventListener("click", () => play(act));
      return b;
    };
    for (const [attack, beat] of v.table) {
      const pair = document.createElement("div");
      pair.className = "pair";
      const target = targets.get(attack);
      const a = cardElement(attack, target ? {
        button: true,
        label: t("Beat {attack} with {card}", { attack: cardName(attack), card: cardName(ui.selected) }),
      } : { label: (beat ? "" : t("unbeaten") + ": ") + cardName(attack) });
      a.classList.add("attack");
      if (!beat) a.classList.add("unbeaten");
      if (target) {
        a.classList.add("target");
        a.addEventListener("click", () => play(target));
      }
      pair.append(a);
      if (beat) {
        const b = cardElement(beat, { label: t("beaten by") + " " + cardName(beat) });
        b.classList.add("cover");
        pair.append(b);
      }
      for (const [card, where] of [[attack, "on-attack"], [beat, "on-cover"]]) {
        const button = card ? catchButton(card) : null;
        if (button) {
          button.classList.add(where);
          pair.append(button);
        }
      }
      box.append(pair);
    }
  }

  /** What this seat may do now, in words ("" when nothing). */
  function moveText(actions) {
    const verbs = new Set(actions.map((a) => a.verb));
    if (verbs.has("lead")) return t("lead a card.");
    if (verbs.has("take")) {
      const transfer = verbs.has("transfer") || verbs.has("show");
      if (verbs.has("beat")) return transfer ? t("beat the attack, transfer or take.") : t("beat the attack or take.");
      return transfer ? t("you cannot beat this: transfer or take.") : t("you cannot beat this: take.");
    }
    if (verbs.has("throw") || verbs.has("pass")) return t("throw in a card, or press Done.");
    return "";
  }

  function renderStatus(m, v, actions, acting) {
    const others = [...acting].filter((s) => s !== ui.seat);
    const who = others.map((s) => `P${s} (${roleOf(v, s) || t("to act")})`).join(t(" and "));
    let text = "";
    if (v.result) {
      text = resultText(v.result);
    } else if (!m.started) {
      text = t("Waiting for every seat to be taken.");
    } else {
      const mine = ui.seat === null ? "" : moveText(actions);
      if (mine) text = t("Your move: {move}", { move: mine }) + (others.length ? " " + t("{who} may act too.", { who }) : "");
      else if (others.length) text = t("Waiting for {who}.", { who });
      if (ui.seat === null) text = t("You are watching.") + " " + text;
    }
    $("status").textContent = text;
    const role = ui.seat === null ? "" : roleOf(v, ui.seat);
    $("me-info").textContent = ui.seat === null ? "" : t("You are P{n}", { n: ui.seat }) + (role ? ", " + role : "");
  }

  /** A finished game's result in one line, as this seat reads it (R7.4). */
  function resultText(r) {
    if (r.draw) return t("A draw: nobody is the durak.");
    let head;
    if (ui.seat !== null && r.durak === ui.seat) return t("You are the durak!");
    if (r.durak !== null && r.durak !== undefined) head = t("{player} is the durak.", { player: "P" + r.durak });
    else head = t("Lost: {players}.", { players: r.losers.map((p) => "P" + p).join(", ") });
    if (ui.seat !== null) head += " " + (r.winners.includes(ui.seat) ? t("You won!") : t("You lost."));
    return head;
  }

  function renderHand(v, actions) {
    const box = $("hand");
    const hadFocus = box.contains(document.activeElement);
    const focused = hadFocus ? document.activeElement.dataset.card : null;
    const focusedIndex = hadFocus ? [...box.children].indexOf(document.activeElement) : -1;
    box.textContent = "";
    const cards = sortHand(v.hand, v.trump);
    const myTurn = actions.length > 0;
    cards.forEach((c, i) => {
      const acts = cardActions(actions, c);
      const labelBits = [cardName(c)];
      if (parseCard(c).suit === v.trump) labelBits.push(t("trump"));
      if (acts.length) labelBits.push(t("playable"));
      const el = cardElement(c, { button: true, label: labelBits.join(", ") });
      el.tabIndex = -1;
      if (acts.length) el.classList.add("playable");
      else if (myTurn) el.classList.add("dim");
      if (ui.selected === c) el.classList.add("selected");
      el.addEventListener("click", () => clickCard(c));
      el.addEventListener("focus", () => { ui.keyFocus = c; });
      box.append(el);
      if (i === 0) el.tabIndex = 0;
    });
    // Restore keyboard focus to the same card, or the one now at its place.
    let target = null;
    if (focused) target = box.querySelector(`[data-card="${CSS.escape(focused)}"]`);
    if (!target && hadFocus && box.children.length) {
      target = box.children[Math.min(focusedIndex, box.children.length - 1)];
    }
    if (target) {
      [...box.children].forEach((b) => { b.tabIndex = -1; });
      target.tabIndex = 0;
      if (hadFocus) target.focus();
    }
    if (!cards.length) {
      const p = document.createElement("p");
      p.className = "empty";
      p.textContent = ui.seat === null ? "" : t("No cards in your hand.");
      box.append(p);
    }
  }

  function renderButtons(v, actions) {
    const take = actions.find((a) => a.verb === "take");
    const pass = actions.find((a) => a.verb === "pass");
    $("take").disabled = !take;
    $("done").disabled = !pass;
    const extra = $("extra-actions");
    extra.textContent = "";
    // Every action but the card plays and the two buttons: transfers, shows, the exchange, a
    // redeal, and the action kinds of house rules (labelled by their notation).
    const special = actions.filter(
      (a) => !["lead", "throw", "beat", "take", "pass", "catch"].includes(a.verb));
    for (const a of special.slice(0, 8)) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "action special";
      b.textContent = actionLabel(a);
      b.dataset.action = a.text;
      b.addEventListener("click", () => play(a));
      extra.append(b);
    }
  }

  function renderChooser(actions) {
    const box = $("chooser");
    const hadFocus = box.contains(document.activeElement);
    box.textContent = "";
    if (!ui.selected) { box.hidden = true; return; }
    const acts = cardActions(actions, ui.selected);
    if (acts.length < 2) { ui.selected = null; box.hidden = true; return; }
    const title = document.createElement("span");
    title.className = "chooser-title";
    title.textContent = pretty(ui.selected) + ":";
    box.append(title);
    for (const a of acts) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "choice";
      b.textContent = actionLabel(a);
      b.dataset.action = a.text;
      b.addEventListener("click", () => play(a));
      box.append(b);
    }
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "choice cancel";
    cancel.textContent = t("Cancel");
    cancel.addEventListener("click", closeChooser);
    box.append(cancel);
    box.hidden = false;
    if (hadFocus || ui.focusChooser) {
      ui.focusChooser = false;
      box.querySelector(".choice").focus();
    }
  }

  function closeChooser() {
    const card = ui.selected;
    ui.selected = null;
    render();
    if (card) {
      const el = $("hand").querySelector(`[data-card="${CSS.escape(card)}"]`);
      if (el) el.focus();
    }
  }

  function renderLog() {
    $("last-event").textContent = ui.log.length ? ui.log[ui.log.length - 1] : "";
    const list = $("log");
    list.textContent = "";
    for (const text of ui.log.slice(-40).reverse()) {
      const li = document.createElement("li");
      li.textContent = text;
      list.append(li);
    }
  }

  function renderResult(m, v) {
    const box = $("result");
    const key = m.game + "/" + m.version;
    if (!v.result || ui.resultShown === key) { box.hidden = true; return; }
    const r = v.result;
    $("result-title").textContent = r.draw ? t("A draw")
      : r.durak === ui.seat ? t("You are the durak!")
      : ui.seat !== null && r.winners.includes(ui.seat) ? t("You won!") : t("Game over");
    const said = resultText(r);
    const same = said === $("result-title").textContent;
    $("result-text").textContent = same ? "" : said;
    $("result-text").hidden = same;
    const places = $("result-places");
    places.textContent = "";
    const order = r.places.map((p, seat) => [p, seat]).sort((a, b) => a[0] - b[0]);
    for (const [place, seat] of order) {
      const li = document.createElement("li");
      const sep = I18N.ordinal ? " " : ": ";  // "1st: P1", "1. P1"
      li.textContent = `${ordinal(place)}${sep}${seatLabel(seat)}${seat === r.durak ? " (" + t("durak") + ")" : ""}`;
      places.append(li);
    }
    $("again").hidden = ui.seat === null;
    $("download").href = `/api/tables/${encodeURIComponent(m.table)}/record?game=${m.game}`;
    $("watch").href = withLang(`/replay?table=${encodeURIComponent(m.table)}&game=${m.game}`);
    const votes = m.restart_votes || [];
    const waiting = seatsWaiting(m, votes);
    $("restart-note").textContent = votes.includes(ui.seat) && waiting.length
      ? t("Waiting for {who} to agree to another game.", { who: waiting.join(t(" and ")) })
      : votes.length && !votes.includes(ui.seat)
        ? t("{who} asked for another game.", { who: votes.map((s) => "P" + s).join(t(" and ")) }) : "";
    const wasHidden = box.hidden;
    box.hidden = false;
    if (wasHidden) $(ui.seat === null ? "show-table" : "again").focus();
  }

  /** The people who have not yet asked for the next game. */
  function seatsWaiting(m, votes) {
    return m.seats.filter((s) => s.kind === "human" && s.taken && s.online && !votes.includes(s.seat))
      .map((s) => (s.seat === ui.seat ? I18N.you : "P" + s.seat));
  }

  function play(action) {
    ui.selected = null;
    send(action.text);
  }

  function clickCard(card) {
    const actions = myActions();
    const acts = cardActions(actions, card);
    if (!ui.msg.started) { toast(t("The game starts when every seat is taken.")); return; }
    if (!acts.length) {
      toast(actions.length ? t("{card} cannot be played now", { card: pretty(card) }) + "." : t("It is not your move."));
      return;
    }
    if (acts.length === 1) { play(acts[0]); return; }
    ui.selected = ui.selected === card ? null : card;
    ui.focusChooser = true;
    render();
  }

  function pressVerb(verb) {
    const a = myActions().find((x) => x.verb === verb);
    if (a) play(a);
    else toast(verb === "take" ? t("You cannot take now.") : t("You cannot press Done now."));
  }

  function onKey(ev) {
    if (!ui.msg || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = (ev.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    const key = ev.key;
    if (!$("result").hidden) return;
    if (key === "t" || key === "T") { ev.preventDefault(); pressVerb("take"); return; }
    if (key === "d" || key === "D") { ev.preventDefault(); pressVerb("pass"); return; }
    if (key === "Escape" && ui.selected) { ev.preventDefault(); closeChooser(); return; }
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(key)) return;
    const chooser = $("chooser");
    const inChooser = !chooser.hidden && chooser.contains(document.activeElement);
    const group = inChooser ? [...chooser.querySelectorAll("button")] : [...$("hand").querySelectorAll("button")];
    if (!group.length) return;
    ev.preventDefault();
    let i = group.indexOf(document.activeElement);
    const forward = key === "ArrowRight" || key === "ArrowDown";
    if (i < 0) {
      const lit = group.findIndex((b) => b.classList.contains("playable"));
      i = lit >= 0 ? lit : 0;
    } else {
      i = (i + (forward ? 1 : group.length - 1)) % group.length;
    }
    group.forEach((b) => { if (!inChooser) b.tabIndex = -1; });
    group[i].tabIndex = 0;
    group[i].focus();
  }

  function tablePage(id) {
    ui.tableId = id;
    $("table").hidden = false;
    $("take").addEventListener("click", () => pressVerb("take"));
    $("done").addEventListener("click", () => pressVerb("pass"));
    $("again").addEventListener("click", () => send(JSON.stringify({ type: "restart" })));
    $("leave").addEventListener("click", () => {
      if (!window.confirm(t("Leave your seat? Someone else may take it."))) return;
      send(JSON.stringify({ type: "leave" }));
      localStorage.removeItem(tokenKey());
      ui.seat = null;
    });
    $("show-table").addEventListener("click", () => {
      ui.resultShown = ui.msg.game + "/" + ui.msg.version;
      $("result").hidden = true;
    });
    $("copy-link").addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText($("share-link").value);
        toast(t("Link copied."));
      } catch (e) {
        $("share-link").select();
      }
    });
    $("typed").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = $("typed-action").value.trim();
      if (text) send(text);
      $("typed-action").value = "";
    });
    document.addEventListener("keydown", onKey);
    if (window.matchMedia("(max-width: 700px)").matches) $("log-box").open = false;
    connect();
  }

  // ---------------------------------------------------------------- the replay page
  function replayPage() {
    $("replay").hidden = false;
    document.title = t("Durak: watch a recorded game");
    const rp = { steps: [], at: 0, players: [], seats: [] };

    function show() {
      const step = rp.steps[rp.at];
      $("replay-pos").textContent = t("step {n} of {count}", { n: rp.at, count: rp.steps.length - 1 });
      $("replay-action").textContent = step.action ? t("Played: {action}", { action: step.action }) : t("The deal");
      const events = $("replay-events");
      events.textContent = "";
      for (const e of step.events) {
        const li = document.createElement("li");
        li.textContent = e.message ? capitalized(say(e.message)) || e.text : e.text;
        events.append(li);
      }
      const hands = $("replay-hands");
      hands.textContent = "";
      step.hands.forEach((hand, seat) => {
        const row = document.createElement("div");
        row.className = "replay-hand";
        const name = document.createElement("span");
        name.className = "opp-name";
        const kind = kindTitle(rp.seats[seat]);
        name.textContent = (rp.players[seat] || "P" + seat) + (kind ? " (" + kind + ")" : "");
        row.append(name);
        for (const c of sortHand(hand, step.view.trump)) row.append(cardChip(c));
        hands.append(row);
      });
      const table = $("replay-table");
      table.textContent = "";
      for (const [attack, defence] of step.view.table) {
        const pair = document.createElement("div");
        pair.className = "pair";
        pair.append(cardElement(attack, { small: true }));
        if (defence) pair.append(cardElement(defence, { small: true }));
        table.append(pair);
      }
      $("replay-first").disabled = $("replay-prev").disabled = rp.at === 0;
      $("replay-next").disabled = $("replay-last").disabled = rp.at === rp.steps.length - 1;
    }

    async function load(text) {
      $("replay-error").textContent = "";
      const res = await fetch("/api/replay" + langQuery(true), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: text,
      });
      const body = await res.json();
      if (!res.ok) { $("replay-error").textContent = capitalized(body.localized || body.error); return; }
      rp.steps = body.steps;
      rp.players = body.players;
      rp.seats = body.seats || [];
      rp.at = 0;
      $("replay-view").hidden = false;
      show();
    }

    const go = (i) => { rp.at = Math.max(0, Math.min(rp.steps.length - 1, i)); show(); };
    $("replay-first").addEventListener("click", () => go(0));
    $("replay-prev").addEventListener("click", () => go(rp.at - 1));
    $("replay-next").addEventListener("click", () => go(rp.at + 1));
    $("replay-last").addEventListener("click", () => go(rp.steps.length - 1));
    document.addEventListener("keydown", (ev) => {
      if (!rp.steps.length) return;
      if (ev.key === "ArrowRight") go(rp.at + 1);
      if (ev.key === "ArrowLeft") go(rp.at - 1);
    });
    $("replay-file").addEventListener("change", async () => {
      const file = $("replay-file").files[0];
      if (file) load(await file.text());
    });
    const params = new URLSearchParams(location.search);
    if (params.get("table")) {
      const game = params.get("game") ? "?game=" + encodeURIComponent(params.get("game")) : "";
      fetch(`/api/tables/${encodeURIComponent(params.get("table"))}/record${game}`)
        .then((r) => (r.ok ? r.text() : Promise.reject(new Error(t("no finished game there")))))
        .then(load)
        .catch((e) => { $("replay-error").textContent = String(e.message || e); });
    }
  }

  async function main() {
    await loadLanguage();
    const m = location.pathname.match(/^\/table\/([^/]+)\/?$/);
    if (m) tablePage(decodeURIComponent(m[1]));
    else if (location.pathname === "/replay") replayPage();
    else startPage();
  }

  main();
})();
