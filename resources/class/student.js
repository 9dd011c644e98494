// The student's page of the class quiz (docs/CLASS.md).
//
// One page, several views: the join form, the lobby, the open question, "answers are closed",
// the student's own result, and the final score. The server is the only source of truth: the
// page asks GET /api/state whenever the live socket says something changed (or every two
// seconds when there is no socket) and draws what it gets.
//
// Everything that comes from the server or the student (names, question text, messages) goes
// into the page through textContent, never as HTML. Every sentence of the page's own goes
// through t() (live.js), whole, in the page's language.
'use strict';

(function () {
  const TOKEN_KEY = 'lockstep.class.token';
  const REQUEST_TIMEOUT_MS = 10000;

  const $ = (id) => document.getElementById(id);

  const views = ['loading', 'join-form', 'lobby', 'question', 'closed', 'result', 'finished'];

  // What the page has drawn, so a refresh only changes what changed.
  const ui = {
    view: 'loading',
    questionKey: null, // id + index of the question whose form is on screen
    question: null,
    lastState: null,
    sending: false,
    read: {},          // question id -> how the server read the last answer we sent
  };

  // ---------------------------------------------------------------------------------------
  // Small helpers

  function getToken() {
    try {
      return sessionStorage.getItem(TOKEN_KEY);
    } catch (e) {
      return memoryToken;
    }
  }
  let memoryToken = null; // used when sessionStorage is not available (private modes)
  function setToken(token) {
    memoryToken = token;
    try {
      if (token) sessionStorage.setItem(TOKEN_KEY, token);
      else sessionStorage.removeItem(TOKEN_KEY);
    } catch (e) { /* keep it in memory only */ }
  }

  function letter(i) {
    return String.fromCharCode('a'.charCodeAt(0) + i);
  }

  // Sets an element's text only when it differs, so screen readers and selections are not
  // disturbed by a refresh that changed nothing.
  function setText(el, text) {
    const s = text == null ? '' : String(text);
    if (el.textContent !== s) el.textContent = s;
  }

  function show(el, visible) {
    if (el.hidden === visible) el.hidden = !visible;
  }

  function showView(name) {
    for (const v of views) show($(v), v === name);
    if (ui.view !== name) {
      ui.view = name;
      window.scrollTo(0, 0);
    }
  }

  // One request to the server. Resolves to {status, data}; status 0 when the server could not
  // be reached at all. Never rejects.
  async function api(method, path, body) {
    const headers = {};
    const token = getToken();
    if (token) headers['Authorization'] = 'Bearer ' + token;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const controller = typeof AbortController === 'function' ? new AbortController() : null;
    const timer = controller ? setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS) : 0;
    try {
      const response = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
        signal: controller ? controller.signal : undefined,
      });
      let data = null;
      try {
        data = await response.json();
      } catch (e) {
        data = null;
      }
      return { status: response.status, data };
    } catch (e) {
      return { status: 0, data: null };
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  // The server's own sentence for an error, or a plain one of ours.
  function errorText(result, fallback) {
    if (result.status === 0)
      return t('Could not reach the class server. Check that you are on the classroom Wi-Fi, then try again.');
    if (result.data && typeof result.data.error === 'string' && result.data.error.trim())
      return result.data.error;
    return fallback || t('Something went wrong (error {1}). Please try again.', result.status);
  }

  // ---------------------------------------------------------------------------------------
  // The message line (#message). There is one; it moves next to whatever it is about.

  function showMessage(text, after) {
    const m = $('message');
    if (after && after.parentNode && m.previousElementSibling !== after)
      after.parentNode.insertBefore(m, after.nextSibling);
    setText(m, text);
    show(m, true);
  }

  function clearMessage() {
    const m = $('message');
    setText(m, '');
    show(m, false);
  }

  // ---------------------------------------------------------------------------------------
  // Connection status in the header

  function setLive(state) {
    const el = $('live');
    const words = {
      live: t('Live'),
      polling: t('Checking every 2 s'),
      offline: t('Reconnecting…'),
    };
    liveState = state;
    el.dataset.state = state;
    setText(el, words[state] || '');
    show(el, !!getToken());
  }

  // ---------------------------------------------------------------------------------------
  // Joining

  function showJoin(message) {
    ui.questionKey = null;
    ui.question = null;
    ui.lastState = null;
    show($('who'), false);
    show($('live'), false);
    showView('join-form');
    if (message) showMessage(message, $('name-hint'));
    else clearMessage();
  }

  async function join(event) {
    event.preventDefault();
    const code = $('code').value.replace(/\s+/g, '');
    const name = $('name').value.trim();
    if (!code) {
      showMessage(t('Type the join code shown on the teacher\'s screen.'), $('name-hint'));
      $('code').focus();
      return;
    }
    if (!name) {
      showMessage(t('Type your name, so your teacher knows who answered.'), $('name-hint'));
      $('name').focus();
      return;
    }
    const button = $('join');
    button.disabled = true;
    setText(button, t('Joining…'));
    const result = await api('POST', '/api/join', { code, name });
    button.disabled = false;
    setText(button, t('Join'));
    if (result.status === 200 && result.data && result.data.token) {
      setToken(result.data.token);
      clearMessage();
      live.start();
      refresh();
      return;
    }
    const fallback = {
      403: t('That code is not right. Check the code on the teacher\'s screen.'),
      409: t('The teacher has locked the lobby, so nobody new can join right now.'),
      429: t('Too many tries at once. Wait a minute, then try again.'),
      503: t('The class is full.'),
    }[result.status];
    showMessage(errorText(result, fallback), $('name-hint'));
  }

  // The token is no longer good: the teacher removed the student, or the server restarted.
  function signedOut() {
    setToken(null);
    live.stop();
    showJoin(t('You are no longer in the quiz: the teacher may have removed you, or the quiz was restarted. Join again with the code on the teacher\'s screen.'));
  }

  // ---------------------------------------------------------------------------------------
  // Reading the state

  let fetching = false;
  let fetchAgain = false;

  // Asks for the state and draws it. Calls that come while one is under way are folded into
  // one more request after it.
  async function refresh() {
    if (!getToken()) return;
    if (fetching) {
      fetchAgain = true;
      return;
    }
    fetching = true;
    try {
      do {
        fetchAgain = false;
        const result = await api('GET', '/api/state');
        if (!getToken()) return;
        if (result.status === 401) {
          signedOut();
          return;
        }
        if (result.status === 200 && result.data) {
          if (liveState === 'offline') setLive(live.hasSocket() ? 'live' : 'polling');
          render(result.data);
        } else if (result.status === 0) {
          setLive('offline');
        }
      } while (fetchAgain);
    } finally {
      fetching = false;
    }
  }

  // The open question's time, when the teacher set one.
  const clock = window.LockstepLive.countdown($('countdown'), (mss) => t('Closes in {1}', mss));

  function render(state) {
    ui.lastState = state;
    if (state.phase !== 'open') clock.set(-1);
    const who = $('who');
    if (state.name) {
      setText(who, state.name);
      who.title = t('You joined as {1}', state.name);
    }
    show(who, !!state.name);

    switch (state.phase) {
      case 'lobby':
        renderLobby(state);
        break;
      case 'open':
        renderOpen(state);
        break;
      case 'closed':
        renderClosed(state);
        break;
      case 'revealed':
        renderResult(state);
        break;
      case 'finished':
        renderFinished(state);
        break;
      default:
        renderLobby(state);
    }
  }

  function leaveQuestion(view) {
    if (ui.view !== view) clearMessage();
    if (view !== 'question') ui.questionKey = null;
    showView(view);
  }

  function renderLobby(state) {
    leaveQuestion('lobby');
    const n = Number(state.students) || 0;
    setText($('lobby-count'),
            n === 1 ? t('{1} student has joined.', n) : t('{1} students have joined.', n));
  }

  function questionLine(q) {
    if (!q || !q.index) return '';
    return q.count ? t('Question {1} of {2}', q.index, q.count) : t('Question {1}', q.index);
  }

  // --- The open question ---

  function renderOpen(state) {
    const q = state.question;
    if (!q) {
      renderLobby(state);
      return;
    }
    const key = q.id + '#' + q.index;
    if (ui.questionKey !== key) {
      // A new question: build its form. The student's last accepted answer (after a reload)
      // is put back in the box.
      clearMessage();
      buildQuestion(q, state.answer);
      ui.questionKey = key;
      ui.question = q;
    }
    showView('question');
    clock.set(state.seconds_left);
    renderReceived(state.answer, ui.read[q.id], state.changes_left);
  }

  function buildQuestion(q, previous) {
    setText($('question-index'), questionLine(q));
    setText($('question-title'), q.title || '');
    setText($('question-text'), q.text || '');

    const area = $('answer-area');
    area.replaceChildren();
    const choices = Array.isArray(q.choices) ? q.choices : [];
    const type = q.type || 'numeric';

    if ((type === 'single' || type === 'multiple') && choices.length) {
      const fieldset = document.createElement('fieldset');
      fieldset.className = 'choices';
      const legend = document.createElement('legend');
      legend.className = 'hint';
      legend.textContent = type === 'single' ? t('Choose one answer.') : t('Choose every answer that is right.');
      fieldset.appendChild(legend);
      const picked = new Set(lettersOf(previous));
      choices.forEach((text, i) => {
        const label = document.createElement('label');
        label.className = 'choice';
        const input = document.createElement('input');
        input.type = type === 'single' ? 'radio' : 'checkbox';
        input.name = 'choice';
        input.value = letter(i);
        input.checked = picked.has(letter(i));
        const badge = document.createElement('span');
        badge.className = 'letter';
        badge.textContent = letter(i);
        badge.setAttribute('aria-hidden', 'true');
        const body = document.createElement('span');
        body.className = 'choice-text';
        body.textContent = text;
        label.append(input, badge, body);
        fieldset.appendChild(label);
      });
      area.appendChild(fieldset);
      return;
    }

    if (type === 'ordering' && choices.length) {
      const intro = document.createElement('p');
      intro.className = 'hint';
      intro.id = 'answer-hint';
      intro.textContent = t('Put these in order. Type their letters, first to last, with spaces between them (for example: b a c).');
      const list = document.createElement('ul');
      list.className = 'order-list';
      choices.forEach((text, i) => {
        const item = document.createElement('li');
        const badge = document.createElement('span');
        badge.className = 'letter';
        badge.textContent = letter(i);
        const body = document.createElement('span');
        body.textContent = text;
        item.append(badge, body);
        list.appendChild(item);
      });
      area.append(intro, list, answerBox(t('Your order'), '', previous, t('for example: b a c'), ''));
      return;
    }

    // Numeric (and any type this page does not know): a text box.
    area.appendChild(answerBox(t('Your answer'), q.unit, previous, '',
                               q.unit ? t('Your answer, in {1}', q.unit) : ''));
  }

  // The text box, with its label and the unit after it; ariaLabel names the box with its unit.
  function answerBox(labelText, unit, previous, placeholder, ariaLabel) {
    const wrap = document.createElement('div');
    wrap.className = 'answer-box';
    const label = document.createElement('label');
    label.htmlFor = 'answer';
    label.textContent = labelText;
    const row = document.createElement('div');
    row.className = 'answer-row';
    const input = document.createElement('input');
    input.id = 'answer';
    input.name = 'answer';
    input.type = 'text';
    input.autocomplete = 'off';
    input.setAttribute('autocapitalize', 'off');
    input.setAttribute('autocorrect', 'off');
    input.spellcheck = false;
    input.maxLength = 200;
    if (placeholder) input.placeholder = placeholder;
    if (previous != null) input.value = String(previous);
    row.appendChild(input);
    if (unit) {
      const u = document.createElement('span');
      u.className = 'unit';
      u.textContent = unit;
      row.appendChild(u);
      if (ariaLabel) input.setAttribute('aria-label', ariaLabel);
    }
    wrap.append(label, row);
    return wrap;
  }

  // "a, c" or "b a c" -> ['a', 'c'] / ['b', 'a', 'c']
  function lettersOf(answer) {
    if (answer == null) return [];
    return String(answer).toLowerCase().split(/[\s,;]+/).filter((s) => /^[a-z]$/.test(s));
  }

  // What the student has chosen or typed, as the server wants it.
  function currentAnswer() {
    const q = ui.question;
    if (!q) return '';
    if (q.type === 'single' || q.type === 'multiple') {
      const picked = Array.from(document.querySelectorAll('input[name="choice"]:checked'))
        .map((input) => input.value);
      return picked.join(', ');
    }
    const box = $('answer');
    return box ? box.value.trim() : '';
  }

  function renderReceived(answer, read, changesLeft) {
    const el = $('received');
    if (answer == null || answer === '') {
      show(el, false);
      return;
    }
    const line = read != null && String(read) !== String(answer)
      ? t('Answer received: {1} (read as {2})', answer, read)
      : t('Answer received: {1}', answer);
    setText($('received-answer'), line);
    let more;
    if (changesLeft == null)
      more = t('You can change it until the teacher closes the question.');
    else if (Number(changesLeft) <= 0)
      more = t('That was your last change: this answer counts.');
    else
      more = Number(changesLeft) === 1
        ? t('You can still change it {1} time until the teacher closes the question.', changesLeft)
        : t('You can still change it {1} times until the teacher closes the question.', changesLeft);
    setText($('received-more'), more);
    show(el, true);
  }

  async function sendAnswer(event) {
    event.preventDefault();
    const q = ui.question;
    if (!q || ui.sending) return;
    const answer = currentAnswer();
    const anchor = $('answer-area');
    if (!answer) {
      const ask = q.type === 'single' ? t('Choose an answer first.')
        : q.type === 'multiple' ? t('Choose at least one answer first.')
        : t('Type your answer first.');
      showMessage(ask, anchor);
      return;
    }
    ui.sending = true;
    const button = $('send');
    button.disabled = true;
    setText(button, t('Sending…'));
    const result = await api('POST', '/api/answer', { question: q.id, answer });
    ui.sending = false;
    button.disabled = false;
    setText(button, t('Send'));

    if (result.status === 200 && result.data) {
      clearMessage();
      const d = result.data;
      ui.read[q.id] = d.read;
      renderReceived(d.answer != null ? d.answer : answer, d.read, d.changes_left);
      refresh();
      return;
    }
    if (result.status === 401) {
      signedOut();
      return;
    }
    // 422: the answer could not be read; 409: not now (closed, another question);
    // 429: too many changes or requests; 400 and others: the server says what.
    const fallback = {
      422: t('That answer could not be read. Type a number, like 5 or 2.5.'),
      409: t('This question is not open for answers any more.'),
      429: t('Too many answers at once. Wait a moment, then send again.'),
    }[result.status];
    showMessage(errorText(result, fallback), anchor);
    if (result.status === 409) refresh();
  }

  // --- After the question ---

  function yourAnswerText(answer) {
    return answer == null || answer === '' ? t('You did not send an answer.') : t('Your answer: {1}', answer);
  }

  function renderClosed(state) {
    leaveQuestion('closed');
    setText($('closed-index'), questionLine(state.question));
    setText($('closed-answer'), yourAnswerText(state.answer));
  }

  // The marks are signs, the same in every language; the words come from /strings.js, which
  // is loaded before this script.
  const VERDICTS = {
    correct: { mark: '✓', words: t('Correct') },
    near: { mark: '≈', words: t('Close, but not quite') },
    wrong: { mark: '✗', words: t('Not right this time') },
    unanswered: { mark: '–', words: t('No answer sent') },
  };

  function renderResult(state) {
    const r = state.result;
    if (!r) {
      renderClosed(state);
      return;
    }
    leaveQuestion('result');
    const q = state.question;
    setText($('result-index'), questionLine(q));
    setText($('result-title'), q && q.title ? q.title : '');
    const said = String(r.verdict || '').toLowerCase();
    const verdict = VERDICTS[said] ? said : 'wrong';
    const v = $('verdict');
    v.dataset.verdict = verdict;
    $('result').dataset.verdict = verdict;
    setText($('verdict-mark'), VERDICTS[verdict].mark);
    setText($('verdict-words'), VERDICTS[verdict].words);
    setText($('feedback'), r.feedback || '');
    show($('feedback'), !!r.feedback);
    setText($('your-answer'), state.answer == null || state.answer === '' ? t('(none)') : state.answer);
    setText($('right-answer'), r.correct == null ? '' : r.correct);
    setText($('explanation'), r.explanation || '');
    show($('explanation-block'), !!r.explanation);
  }

  function renderFinished(state) {
    leaveQuestion('finished');
    const s = state.score;
    if (s && s.questions != null) {
      setText($('score'), t('You got {1} of {2} right', s.correct, s.questions));
    } else {
      setText($('score'), t('The quiz is over.'));
    }
  }

  // ---------------------------------------------------------------------------------------
  // Live updates (live.js): a WebSocket that says when something changed; polling while it is
  // down. A message with the version already seen asks nothing more.

  let liveState = 'offline'; // what the header says: 'live', 'polling' or 'offline'
  const live = window.LockstepLive.create({
    refresh, setLive, skipSameVersion: true, token: () => getToken() || '',
  });

  // ---------------------------------------------------------------------------------------
  // Start

  function init() {
    $('join-form').addEventListener('submit', join);
    $('question').addEventListener('submit', sendAnswer);

    // A code in the address (…/?code=4827) fills the form.
    const code = new URLSearchParams(location.search).get('code');
    if (code && /^\d+$/.test(code)) $('code').value = code;

    // Phones put pages to sleep, and sockets with them: catch up when the page is seen again.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible' && getToken()) {
        refresh();
        live.connect(); // does nothing while a socket is open or opening
      }
    });

    if (getToken()) {
      live.start();
      refresh();
    } else {
      showJoin(null);
    }
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
