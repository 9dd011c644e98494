// The teacher's page of the class quiz (docs/CLASS.md), shown on the projector.
//
// The teacher opens the page with the one-time link lockstep printed (/teacher?token=…); the
// server spends it for a cookie (HttpOnly, SameSite=Strict) and sends the browser on to plain
// /teacher, so no token is ever in the address bar or in this script. Every /api/teacher/…
// request and the live socket carry that cookie. The page draws GET
// /api/teacher/state whenever the live socket says something changed, or every two seconds
// without a socket. Names and every other text from the server go in through textContent.
// Every sentence of the page's own goes through t() (live.js), whole, in the page's language.
'use strict';

(function () {
  const REQUEST_TIMEOUT_MS = 10000;

  const $ = (id) => document.getElementById(id);

  const ui = {
    state: null,
    busy: false,          // a step (open, close, …) is under way
    questionCount: null,  // how many questions the quiz has, kept for the score table
    qrUrl: null,
    qrLoading: false,
    qrTries: 0,
    stopped: false,       // the token is not good: nothing more to ask
    picked: new Set(),    // students ticked for removal
  };

  // ---------------------------------------------------------------------------------------
  // Helpers

  function setText(el, text) {
    const s = text == null ? '' : String(text);
    if (el.textContent !== s) el.textContent = s;
  }

  function show(el, visible) {
    if (el.hidden === visible) el.hidden = !visible;
  }

  function letter(i) {
    return String.fromCharCode('a'.charCodeAt(0) + i);
  }

  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text != null) e.textContent = String(text);
    return e;
  }

  // One request with the teacher's cookie. Resolves to {status, data, response}; status 0 when
  // the server could not be reached. `as` is 'json' (default), 'blob' or 'none'.
  async function api(method, path, body, as) {
    const headers = {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const controller = typeof AbortController === 'function' ? new AbortController() : null;
    const timer = controller ? setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS) : 0;
    try {
      const response = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
        credentials: 'same-origin',
        signal: controller ? controller.signal : undefined,
      });
      let data = null;
      if (response.ok && as === 'blob') {
        data = await response.blob();
      } else {
        try {
          data = await response.json();
        } catch (e) {
          data = null;
        }
      }
      return { status: response.status, data };
    } catch (e) {
      return { status: 0, data: null };
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  function errorText(result, fallback) {
    if (result.status === 0) return t('The quiz server cannot be reached. Is lockstep still running?');
    if (result.data && typeof result.data.error === 'string' && result.data.error.trim())
      return result.data.error;
    return fallback || t('That did not work (error {1}).', result.status);
  }

  let messageTimer = 0;
  function showMessage(text, sticky) {
    const m = $('teacher-message');
    setText(m, text);
    show(m, true);
    clearTimeout(messageTimer);
    if (!sticky) messageTimer = setTimeout(() => show(m, false), 8000);
  }

  function clearMessage() {
    clearTimeout(messageTimer);
    show($('teacher-message'), false);
  }

  function setLive(state) {
    const words = { live: t('Live'), polling: t('Checking every 2 s'), offline: t('Reconnecting…') };
    liveState = state;
    const e = $('live');
    e.dataset.state = state;
    setText(e, words[state] || '');
  }

  // The token is missing or not (any more) the server's: say so and stop.
  function stop(message) {
    ui.stopped = true;
    live.stop();
    for (const id of ['btn-open', 'btn-close', 'btn-reveal', 'btn-next', 'btn-lock', 'btn-back',
                      'btn-skip', 'timer', 'view-names', 'view-ranking', 'view-histogram'])
      $(id).disabled = true;
    setText($('phase'), t('Not connected'));
    setLive('offline');
    showMessage(message, true);
  }

  // ---------------------------------------------------------------------------------------
  // The students' address and the QR code

  // `addresses` may hold whole addresses ("http://192.168.1.5:8080/") or bare hosts; a bare
  // host gets this page's scheme and port.
  function studentAddresses(state) {
    const out = [];
    const list = Array.isArray(state.addresses) ? state.addresses : [];
    for (const a of list) {
      let s = typeof a === 'string' ? a : a && (a.url || a.address);
      if (!s) continue;
      s = String(s);
      if (!/^https?:\/\//i.test(s)) {
        const host = s.includes(':') && !s.startsWith('[') ? '[' + s + ']' : s;
        s = location.protocol + '//' + host + (location.port ? ':' + location.port : '') + '/';
      }
      out.push(s);
    }
    if (!out.length) out.push(location.origin + '/');
    // Students' phones cannot reach this machine's loopback: show a network address first.
    const loopback = (u) => /^https?:\/\/(localhost|127\.|\[::1\])/i.test(u);
    return out.filter((u) => !loopback(u)).concat(out.filter(loopback));
  }

  async function loadQr() {
    if (ui.qrUrl || ui.qrLoading || ui.qrTries >= 3) return;
    ui.qrLoading = true;
    ui.qrTries += 1;
    const result = await api('GET', '/api/teacher/qr.svg', undefined, 'blob');
    ui.qrLoading = false;
    if (result.status !== 200 || !result.data) return; // the address is there in words
    // An SVG blob needs its type for <img> to draw it.
    const blob = result.data.type ? result.data : new Blob([result.data], { type: 'image/svg+xml' });
    ui.qrUrl = URL.createObjectURL(blob);
    for (const img of document.querySelectorAll('img.qr')) {
      img.src = ui.qrUrl;
      img.hidden = false;
    }
  }

  // ---------------------------------------------------------------------------------------
  // Drawing the state

  // The words come from /strings.js, which is loaded before this script.
  const PHASES = {
    lobby: t('Lobby'),
    open: t('Answers open'),
    closed: t('Answers closed'),
    revealed: t('Answer revealed'),
    finished: t('Finished'),
  };

  function render(state) {
    ui.state = state;
    const phase = state.phase;
    const students = Array.isArray(state.students) ? state.students : [];
    const q = state.question || null;
    if (q && q.count) ui.questionCount = q.count;

    setText($('phase'), PHASES[phase] || phase || '');
    document.body.dataset.phase = phase || '';

    // How to join
    const addresses = studentAddresses(state);
    for (const a of document.querySelectorAll('.join-address')) setText(a, addresses[0]);
    for (const c of document.querySelectorAll('.join-code-text')) setText(c, state.code || '');
    // Someone guessing the code: the teacher sees it, and the code changes by itself.
    const wrong = Number(state.wrong_codes) || 0;
    setText($('wrong-codes'), wrong ? t('{1} wrong codes tried; the code changed {2} times.', wrong,
                                        Number(state.code_changes) || 0) : '');
    show($('wrong-codes'), wrong > 0);
    show($('join-small'), phase === 'open' || phase === 'closed' || phase === 'revealed');

    // The controls
    const busy = ui.busy;
    $('btn-open').disabled = busy || phase !== 'lobby';
    $('btn-close').disabled = busy || phase !== 'open';
    $('btn-reveal').disabled = busy || phase !== 'closed';
    $('btn-next').disabled = busy || phase !== 'revealed';
    $('btn-back').disabled = busy || !state.can_go_back;
    $('btn-skip').disabled = busy || (phase !== 'open' && phase !== 'closed');
    const timer = $('timer');
    const seconds = String(Number(state.timer) || 0);
    if (![...timer.options].some((o) => o.value === seconds))
      timer.appendChild(el('option', null, Math.floor(seconds / 60) + ':' +
                                             String(seconds % 60).padStart(2, '0'))).value = seconds;
    if (timer.value !== seconds && document.activeElement !== timer) timer.value = seconds;
    timer.disabled = busy || phase === 'finished';
    const view = state.view || {};
    for (const key of ['names', 'ranking', 'histogram']) {
      const box = $('view-' + key);
      box.checked = !!view[key];
      box.disabled = busy;
    }
    setText($('btn-next'), q && q.count && q.index >= q.count ? t('Finish the quiz') : t('Next question'));
    const lock = $('btn-lock');
    lock.disabled = busy || phase === 'finished';
    lock.setAttribute('aria-pressed', state.locked ? 'true' : 'false');
    setText(lock, state.locked ? t('Unlock the lobby') : t('Lock the lobby'));

    // The stage
    show($('stage-lobby'), phase === 'lobby');
    show($('stage-question'), !!q && (phase === 'open' || phase === 'closed' || phase === 'revealed'));
    show($('stage-finished'), phase === 'finished');

    if (phase === 'lobby') renderLobby(state, students);
    if (q) renderQuestion(state, q, students);
    if (phase === 'finished') renderScores(students, view);
    renderStudents(state, students);
  }

  function renderLobby(state, students) {
    const n = students.length;
    setText($('lobby-count'), n === 0 ? t('Nobody has joined yet.')
      : n === 1 ? t('{1} student has joined', n) : t('{1} students have joined', n));
    show($('locked-note'), !!state.locked);
  }

  function renderQuestion(state, q, students) {
    setText($('t-question-index'), !q.index ? ''
      : q.count ? t('Question {1} of {2}', q.index, q.count) : t('Question {1}', q.index));
    setText($('t-question-title'), q.title || '');
    setText($('t-question-text'), q.text || '');

    // The choices, with the letters students send
    const choices = Array.isArray(q.choices) ? q.choices : [];
    const list = $('t-choices');
    const key = q.id + '#' + q.index;
    if (list.dataset.key !== key) {
      list.replaceChildren();
      choices.forEach((c, i) => {
        const li = el('li');
        li.append(el('span', 'letter', letter(i)), el('span', null, c));
        list.appendChild(li);
      });
      list.dataset.key = key;
    }
    show(list, choices.length > 0);

    // How many have answered
    const answered = Number(q.answered) || 0;
    const total = students.length;
    setText($('answered'), t('{1} of {2} answered', answered, total));
    clock.set(state.phase === 'open' ? q.seconds_left : -1);
    $('answered-bar').style.width = (total ? Math.min(100, (100 * answered) / total) : 0) + '%';

    // The histogram, once closed
    const bars = Array.isArray(state.histogram) ? state.histogram : [];
    const closed = state.phase === 'closed' || state.phase === 'revealed';
    const hidden = !!state.view && state.view.histogram === false;
    const showBars = closed && bars.length > 0 && !hidden;
    show($('histogram'), showBars);
    show($('histogram-hidden'), closed && hidden);
    if (showBars) renderHistogram(bars);

    // The reveal
    const r = state.reveal;
    const showReveal = state.phase === 'revealed' && !!r;
    show($('reveal'), showReveal);
    if (showReveal) {
      setText($('reveal-answer'), r.answer == null ? '' : r.answer);
      setText($('reveal-explanation'), r.explanation || '');
      setText($('reveal-working'), r.working || '');
      show($('reveal-working-block'), !!r.working);
      setText($('reveal-run'), r.run || '');
      show($('reveal-run-block'), !!r.run);
    }
  }

  const KIND_TAGS = {
    right: { cls: 'right', text: t('✓ right') },
    mistake: { cls: 'mistake', text: t('a common mistake') },
    near: { cls: 'near', text: t('close') },
  };

  function renderHistogram(bars) {
    const rows = $('histogram-rows');
    const key = JSON.stringify(bars);
    if (rows.dataset.key === key) return;
    rows.dataset.key = key;
    const max = Math.max(1, ...bars.map((b) => Number(b.count) || 0));
    rows.replaceChildren();
    for (const b of bars) {
      const count = Number(b.count) || 0;
      const row = el('div', 'hrow');
      row.dataset.kind = b.kind || 'other';
      const label = el('div', 'hlabel');
      label.appendChild(el('span', 'hlabel-text', b.label == null ? '' : b.label));
      const tag = KIND_TAGS[b.kind];
      if (tag) label.appendChild(el('span', 'tag ' + tag.cls, tag.text));
      const bar = el('div', 'hbar');
      const fill = el('div');
      fill.style.width = (100 * count) / max + '%';
      bar.appendChild(fill);
      bar.setAttribute('aria-hidden', 'true');
      const n = el('div', 'hcount', count);
      row.append(label, bar, n);
      rows.appendChild(row);
    }
  }

  function studentStatus(phase, s) {
    if (phase === 'lobby' || phase === 'finished' || typeof s.answered !== 'boolean') return null;
    if (s.answered) return { mark: '✓', text: t('answered'), done: true };
    return phase === 'open' ? { mark: '…', text: t('not answered yet'), done: false }
                            : { mark: '–', text: t('no answer'), done: false };
  }

  // A student as the screen shows them: their name, or while names are hidden their number.
  function shownName(state, s) {
    if (state.view && state.view.names) return s.name;
    return t('Student {1}', String(s.id).replace(/^s/, ''));
  }

  function renderStudents(state, students) {
    setText($('student-count'), students.length ? String(students.length) : '');
    const names = !!(state.view && state.view.names);
    show($('names-hidden'), !names && students.length > 0);
    // Only names can be told apart: ticking them for removal needs them shown.
    const here = new Set(students.map((s) => s.id));
    for (const id of [...ui.picked]) if (!here.has(id) || !names) ui.picked.delete(id);
    renderPicked();
    const list = $('students');
    // Rebuilt only when something in it changed, so a Remove button does not vanish under
    // the pointer at every refresh.
    const key = JSON.stringify([state.phase, names, students]);
    if (list.dataset.key === key) return;
    list.dataset.key = key;
    list.replaceChildren();
    if (!students.length) {
      list.appendChild(el('li', 'empty', t('Nobody yet')));
      return;
    }
    for (const s of students) {
      const li = el('li');
      const name = shownName(state, s);
      if (names && state.phase !== 'finished') {
        const box = el('input', 'pick');
        box.type = 'checkbox';
        box.checked = ui.picked.has(s.id);
        box.setAttribute('aria-label', t('Pick {1} to remove', name));
        box.addEventListener('change', () => {
          if (box.checked) ui.picked.add(s.id);
          else ui.picked.delete(s.id);
          renderPicked();
        });
        li.appendChild(box);
      }
      li.appendChild(el('span', 'student-name', name));
      li.lastChild.title = name;
      const status = studentStatus(state.phase, s);
      if (status) {
        // A mark to see at a glance; the words for screen readers and on hover.
        const mark = el('span', 'student-status' + (status.done ? ' done' : ''));
        mark.title = status.text;
        mark.appendChild(el('span', null, status.mark)).setAttribute('aria-hidden', 'true');
        mark.appendChild(el('span', 'visually-hidden', status.text));
        li.appendChild(mark);
      }
      if (state.phase !== 'finished') {
        const remove = el('button', 'btn small danger', t('Remove'));
        remove.type = 'button';
        remove.setAttribute('aria-label', t('Remove {1}', name));
        remove.addEventListener('click', () => removeStudent(s, name));
        li.appendChild(remove);
      }
      list.appendChild(li);
    }
  }

  // The scores: with the ranking (and names) shown, each student from the best down;
  // otherwise only how many students got each score, from the best down.
  function renderScores(students, view) {
    const body = $('scores-body');
    body.replaceChildren();
    const of = ui.questionCount;
    const ranked = !!(view && view.ranking && view.names);
    setText($('scores-who'), ranked ? t('Student') : t('Students'));
    const sorted = students.slice().sort((a, b) => (Number(b.correct) || 0) - (Number(a.correct) || 0) ||
      String(a.name).localeCompare(String(b.name), undefined, { sensitivity: 'base' }));
    let total = 0;
    for (const s of sorted) total += Number(s.correct) || 0;
    const rows = [];
    if (ranked) {
      for (const s of sorted) rows.push([s.name, Number(s.correct) || 0]);
    } else {
      const counts = new Map();
      for (const s of sorted) {
        const right = Number(s.correct) || 0;
        counts.set(right, (counts.get(right) || 0) + 1);
      }
      for (const [right, n] of counts)
        rows.push([n === 1 ? t('{1} student', n) : t('{1} students', n), right]);
    }
    for (const [who, right] of rows) {
      const tr = el('tr');
      tr.appendChild(el('td', null, who));
      tr.appendChild(el('td', 'num', of ? t('{1} of {2}', right, of) : right));
      body.appendChild(tr);
    }
    if (!sorted.length) {
      const tr = el('tr');
      const td = el('td', 'empty', t('Nobody took part.'));
      td.colSpan = 2;
      tr.appendChild(td);
      body.appendChild(tr);
    }
    const mean = sorted.length ? total / sorted.length : 0;
    const average = Math.round(mean * 10) / 10;
    setText($('class-summary'), !sorted.length ? ''
      : of ? t('On average the class got {1} of {2} right.', average, of)
      : t('On average the class got {1} right.', average));
  }

  // ---------------------------------------------------------------------------------------
  // Asking and acting

  let fetching = false;
  let fetchAgain = false;

  async function refresh() {
    if (ui.stopped) return;
    if (fetching) {
      fetchAgain = true;
      return;
    }
    fetching = true;
    try {
      do {
        fetchAgain = false;
        const result = await api('GET', '/api/teacher/state');
        if (result.status === 401) {
          stop(t('This page is no longer signed in as the teacher (the quiz may have been restarted). Open the newest teacher link that lockstep printed.'));
          return;
        }
        if (result.status === 200 && result.data) {
          if (liveState === 'offline') setLive(live.hasSocket() ? 'live' : 'polling');
          render(result.data);
          loadQr();
        } else if (result.status === 0) {
          setLive('offline');
        }
      } while (fetchAgain);
    } finally {
      fetching = false;
    }
  }

  // open, close, reveal, next
  async function step(what) {
    if (ui.busy) return;
    ui.busy = true;
    if (ui.state) render(ui.state);
    const result = await api('POST', '/api/teacher/' + what, {});
    ui.busy = false;
    if (result.status === 401) {
      stop(t('This page is no longer signed in as the teacher.'));
      return;
    }
    if (result.status === 200) clearMessage();
    else showMessage(errorText(result));
    await refresh();
    if (ui.state) render(ui.state);
  }

  async function toggleLock() {
    if (!ui.state || ui.busy) return;
    ui.busy = true;
    render(ui.state);
    const result = await api('POST', '/api/teacher/lock', { locked: !ui.state.locked });
    ui.busy = false;
    if (result.status !== 200) showMessage(errorText(result));
    await refresh();
    if (ui.state) render(ui.state);
  }

  async function removeStudent(s, name) {
    if (!window.confirm(t('Remove {1} from the quiz?', name))) return;
    const result = await api('POST', '/api/teacher/remove', { student: s.id });
    if (result.status !== 200) showMessage(errorText(result));
    refresh();
  }

  function renderPicked() {
    const button = $('btn-remove-picked');
    const n = ui.picked.size;
    setText(button, t('Remove the {1} ticked', n));
    show(button, n > 0);
  }

  // A flood of made-up names goes in one action.
  async function removePicked() {
    const ids = [...ui.picked];
    if (!ids.length || !window.confirm(t('Remove {1} students from the quiz?', ids.length))) return;
    const result = await api('POST', '/api/teacher/remove', { students: ids });
    if (result.status === 200) ui.picked.clear();
    else showMessage(errorText(result));
    refresh();
  }

  // A change of what the screen shows, or of the timer.
  async function setting(path, body) {
    if (ui.busy) return;
    ui.busy = true;
    const result = await api('POST', '/api/teacher/' + path, body);
    ui.busy = false;
    if (result.status !== 200) showMessage(errorText(result));
    await refresh();
    if (ui.state) render(ui.state);
  }

  // <a download> with a blob, so that a failed download shows its reason on the page.
  async function download(event) {
    event.preventDefault();
    const result = await api('GET', '/api/teacher/results', undefined, 'blob');
    if (result.status !== 200 || !result.data) {
      showMessage(errorText(result, t('The results could not be downloaded.')));
      return;
    }
    const blob = result.data.type ? result.data : new Blob([result.data], { type: 'text/csv' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = 'class-results.csv';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  // ---------------------------------------------------------------------------------------
  // Live updates (live.js), as on the students' page: every message asks again.

  let liveState = 'offline'; // what the header says: 'live', 'polling' or 'offline'
  const live = window.LockstepLive.create({ refresh, setLive });
  const clock = window.LockstepLive.countdown($('t-countdown'), (mss) => t('Closes in {1}', mss));

  // ---------------------------------------------------------------------------------------
  // Start

  function init() {
    $('btn-open').addEventListener('click', () => step('open'));
    $('btn-close').addEventListener('click', () => step('close'));
    $('btn-reveal').addEventListener('click', () => step('reveal'));
    $('btn-next').addEventListener('click', () => step('next'));
    $('btn-back').addEventListener('click', () => step('back'));
    $('btn-skip').addEventListener('click', () => step('skip'));
    $('timer').addEventListener('change', (e) => setting('timer', { seconds: Number(e.target.value) }));
    for (const key of ['names', 'ranking', 'histogram'])
      $('view-' + key).addEventListener('change', (e) => setting('view', { [key]: e.target.checked }));
    $('btn-remove-picked').addEventListener('click', removePicked);
    $('btn-lock').addEventListener('click', toggleLock);
    $('download').addEventListener('click', download);

    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') refresh();
    });
    live.start();
    refresh();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
