// Live updates for the class quiz pages (docs/CLASS.md), shared by the students' page
// (student.js) and the teacher's page (teacher.js). Load it before the page's own script.
//
// The server keeps a WebSocket at /api/live that sends {"version": N} whenever something
// changed; the page then asks for its state again. While there is no socket the page asks
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
//   });
//   live.start();       // want live updates: open the socket (or poll while it fails)
//   live.stop();        // no more updates: close the socket, stop polling and retrying
//   live.connect();     // try the socket now, if wanted and there is none (page seen again)
//   live.hasSocket();   // true while a socket is open or opening
//
// No dependencies, no HTML: it touches nothing in the page itself.
'use strict';

(function () {
  const POLL_MS = 2000;           // how often to ask without a live socket
  const RECONNECT_MAX_MS = 30000; // the longest wait between two socket attempts
  const PATH = '/api/live';

  function create(options) {
    const refresh = options.refresh;
    const setLive = options.setLive;
    const skipSameVersion = !!options.skipSameVersion;

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
        socket = new WebSocket(scheme + location.host + PATH);
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

  window.LockstepLive = Object.freeze({ create });
})();
