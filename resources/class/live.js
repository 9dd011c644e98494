// Live updates for the class quiz pages (docs/CLASS.md), shared by the students' page
// (student.js) and the teacher's page (teacher.js). Load it before the page's own script.
//
// The server keeps a WebSocket at /api/live?token=… that sends {"version": N} whenever
// something changed; the page then asks for its state again. Only a token that joined (or the
// teacher's) opens one. While there is no socket the page asks
// every two seconds instead, and the socket is tried again after a wait that doubles each
// time (2 s, 4 s, … up to 30 s).
//
// This file only decides *when* to ask. What to ask, how to draw it, and the words of the
// "Live / Checking every 2 s / Reconnecting…" badge stay with each page:
//
//   const live = window.LockstepLive.create({
//     refresh,          // () => void: ask for the state and draw it (called often; fold calls)
//     setLive,          // (state) => void: 'live' (socket open) or 'polling' (asking every 2 s)
//     skipSameVersion,  // optional: ask only when a message brings a new version
//     token,            // () => string: the page's token, for the socket's address
//   });
//   live.start();       // want live updates: open the socket (or poll while it fails)
//   live.stop();        // no more updates: close the socket, stop polling and retrying
//   live.connect();     // try the socket now, if wanted and there is none (page seen again)
//   live.hasSocket();   // true while a socket is open or opening
//
//   const clock = window.LockstepLive.countdown(element, (mss) => t('Closes in {1}', mss));
//   clock.set(state.seconds_left);  // an open question's time left, counted down on the page
//
// No dependencies, no HTML: it touches nothing in the page itself.
//
// It also holds what both pages need for their words (the two parts below the live updates):
//
//   t('Question {1} of {2}', n, total)
//                       // one whole English sentence, in the page's language: looked up in
//                       // window.lockstepStrings (english -> translation, from /strings.js; when
//                       // it or the sentence is missing, the English), then {1}, {2}, ... are
//                       // replaced by the arguments, as text. The result goes in via textContent.
//
//   On DOMContentLoaded (or at once, when this script runs after the parsing, as with defer:
//   before the page's own script), every element with data-t gets t(its trimmed text) as its
//   text, every data-t-placeholder / data-t-aria-label / data-t-title / data-t-alt sets that
//   attribute to t(its value), <title> (marked data-t) sets document.title, and <html lang> is
//   window.lockstepLanguage or 'en'.
'use strict';

// The words of the pages: english -> the page's language. A global function, for student.js
// and teacher.js.
function t(english, ...args) {
  const strings = window.lockstepStrings;
  let text = english;
  if (strings && typeof strings === 'object' &&
      Object.prototype.hasOwnProperty.call(strings, english) &&
      typeof strings[english] === 'string') {
    text = strings[english];
  }
  // One pass, so an argument that holds "{2}" stays as it is.
  return text.replace(/\{(\d+)\}/g, (whole, digits) => {
    const i = Number(digits);
    return i >= 1 && i <= args.length ? String(args[i - 1]) : whole;
  });
}

// The words written in the HTML: each marked element and attribute, in the page's language.
(function () {
  const ATTRIBUTES = ['placeholder', 'aria-label', 'title', 'alt'];

  function translatePage() {
    document.documentElement.lang = window.lockstepLanguage || 'en';
    for (const e of document.querySelectorAll('[data-t]')) {
      const english = e.textContent.trim();
      if (english) e.textContent = t(english); // on <title>, this is document.title
    }
    for (const name of ATTRIBUTES) {
      for (const e of document.querySelectorAll('[data-t-' + name + ']')) {
        const english = e.getAttribute('data-t-' + name);
        if (english) e.setAttribute(name, t(english));
      }
    }
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', translatePage);
  else translatePage();
})();

(function () {
  const POLL_MS = 2000;           // how often to ask without a live socket
  const RECONNECT_MAX_MS = 30000; // the longest wait between two socket attempts
  const PATH = '/api/live';

  function create(options) {
    const refresh = options.refresh;
    const setLive = options.setLive;
    const skipSameVersion = !!options.skipSameVersion;
    const token = options.token || (() => '');

    let ws = null;         // the socket, open or opening
    let wanted = false;    // between start() and stop()
    let pollTimer = 0;
    let retryTimer = 0;
    let retryMs = POLL_MS; // the wait before the next socket attempt
    let version = null;    // the last version a message told (with skipSameVersion)

    function start() {
      wanted = true;
      connect();
    }

    function stop() {
      wanted = false;
      stopPolling();
      clearTimeout(retryTimer);
      retryTimer = 0;
      if (ws) {
        const old = ws;
        ws = null;
        old.onclose = null;
        try { old.close(); } catch (e) { /* already closed */ }
      }
    }

    function connect() {
      if (!wanted || ws) return;
      let socket;
      try {
        const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
        socket = new WebSocket(scheme + location.host + PATH + '?token=' +
                               encodeURIComponent(token()));
      } catch (e) {
        lost();
        return;
      }
      ws = socket;
      socket.onopen = () => {
        retryMs = POLL_MS;
        stopPolling();
        setLive('live');
        refresh(); // catch up on anything missed while away
      };
      socket.onmessage = (event) => {
        // {"version": N}: something changed. Any other message also means: ask again.
        if (!skipSameVersion) {
          refresh();
          return;
        }
        let v = null;
        try {
          const m = JSON.parse(event.data);
          v = m && typeof m.version === 'number' ? m.version : null;
        } catch (e) { /* not JSON: ask again */ }
        if (v === null || v !== version) {
          version = v;
          refresh();
        }
      };
      socket.onerror = () => { /* onclose follows */ };
      socket.onclose = () => {
        if (ws === socket) ws = null;
        lost();
      };
    }

    // The socket failed or closed: poll every two seconds, and try the socket again later.
    function lost() {
      if (!wanted) return;
      setLive('polling');
      startPolling();
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => {
        retryTimer = 0;
        connect();
      }, retryMs);
      retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
    }

    function startPolling() {
      if (!pollTimer) pollTimer = setInterval(refresh, POLL_MS);
      refresh();
    }

    function stopPolling() {
      clearInterval(pollTimer);
      pollTimer = 0;
    }

    return {
      start,
      stop,
      connect,
      hasSocket: () => ws !== null,
    };
  }

  // A question's time left, counted down on the page between two states: `set(seconds)` with
  // the server's seconds_left (-1 or null: no timer) shows "m:ss" in `element` (hidden without
  // a timer) and counts down each quarter second until the next state says otherwise.
  function countdown(element, format) {
    let deadline = 0;
    let timer = 0;
    function draw() {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      const text = format(Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0'));
      if (element.textContent !== text) element.textContent = text;
      element.dataset.low = left <= 10 ? 'true' : 'false';
      if (left <= 0) {
        clearInterval(timer);
        timer = 0;
      }
    }
    return {
      set(seconds) {
        const on = typeof seconds === 'number' && seconds >= 0;
        element.hidden = !on;
        clearInterval(timer);
        timer = 0;
        if (!on) return;
        deadline = Date.now() + seconds * 1000;
        draw();
        timer = setInterval(draw, 250);
      },
    };
  }

  window.LockstepLive = Object.freeze({ create, countdown });
})();
