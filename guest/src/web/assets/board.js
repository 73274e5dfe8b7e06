// The board's transport (tasklists serve): the live refresh, the forms sent
// without leaving the page, and the key map's keys. It has no logic of its
// own: every page, word and rule comes from the component; this only moves
// them, and shows or hides what the page already holds (the liveness notes,
// the keys' panel, the question of a key that asks first). It runs on CSP
// `script-src 'self'`: no inline anything.
'use strict';

(() => {
  const main = document.getElementById('board');
  const flash = document.getElementById('flash');
  if (!main) return;
  const keys = JSON.parse(document.body.dataset.keys || '[]');
  // What the keys select: a task's card, a list's, an entry of the inbox.
  const CARDS = 'article.task, article.list, article.entry';
  // The page's notes (page.rs), shown while they are true.
  const offline = document.getElementById('offline');
  const unsent = document.getElementById('unsent');
  const paused = document.getElementById('paused');
  const signedOut = document.getElementById('signed-out');

  /** Shows or hides one of the page's notes. */
  function note(el, on) {
    if (el) el.hidden = !on;
  }

  // ---- liveness ---------------------------------------------------------

  let events = null;

  /** The server did not answer (the stream dropped, a read or a send failed). */
  function down() {
    note(offline, true);
  }

  /** Whether the store's changes reach the page (or it has no stream to wait for). */
  function streaming() {
    return !window.EventSource || (!!events && events.readyState === EventSource.OPEN);
  }

  // ---- the live refresh -------------------------------------------------

  let selected = null; // the data-task / data-list of the selected card
  let loading = false;
  let again = false;
  let deferred = false;
  let timer = null;

  /**
   * The page's own address with part=main: only main's inner HTML; with
   * `have`, the versions of the cards the page holds, which come back as
   * marks where they stay.
   */
  function fragmentAddress(have) {
    const url = new URL(window.location.href);
    url.searchParams.set('part', 'main');
    if (have) url.searchParams.set('have', have);
    return url.pathname + url.search;
  }

  /** The versions of the board's cards on the page, `.`-separated. */
  function held() {
    const versions = new Set();
    for (const card of main.querySelectorAll('article.task[data-v]')) versions.add(card.dataset.v);
    return [...versions].join('.');
  }

  /**
   * The fragment `html` with each mark of kept cards replaced by copies of
   * the page's own, or null when the page no longer holds one of them.
   */
  function unfold(html) {
    const next = document.createElement('template');
    next.innerHTML = html;
    const marks = next.content.querySelectorAll('i.keep[data-keep]');
    if (!marks.length) return next.content;
    const mine = new Map();
    for (const card of main.querySelectorAll('article.task[data-v]')) mine.set(card.dataset.v, card);
    for (const mark of marks) {
      const copies = [];
      for (const v of mark.dataset.keep.split(' ')) {
        const card = mine.get(v);
        if (!card) return null;
        copies.push(card.cloneNode(true));
      }
      mark.replaceWith(...copies);
    }
    return next.content;
  }

  /** Whether the person is in a field of main (a refresh would take it away). */
  function typing() {
    const el = document.activeElement;
    return !!el && main.contains(el) && el.matches('input, textarea, select');
  }

  /**
   * A refresh waits for the person to leave the field, and the page says
   * so (with the stream open, that note says all: the page is live).
   */
  function defer() {
    deferred = true;
    note(paused, true);
    if (streaming()) note(offline, false);
  }

  async function refresh() {
    if (typing()) {
      defer();
      return;
    }
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    try {
      let answer = await fetch(fragmentAddress(held()), { credentials: 'same-origin' });
      let html = await answer.text();
      let next = html.startsWith('<!doctype') ? null : unfold(html);
      if (!next && !html.startsWith('<!doctype')) {
        // A card it names is gone from the page meanwhile: the whole main.
        answer = await fetch(fragmentAddress(''), { credentials: 'same-origin' });
        html = await answer.text();
        next = html.startsWith('<!doctype') ? null : unfold(html);
      }
      if (html.startsWith('<!doctype')) {
        // Not a fragment: the server refused the request itself. Signed
        // out (a restarted server, a revoked token): the page says so and
        // keeps what is typed; busy: the next change retries.
        if (answer.status === 401) {
          note(offline, false);
          note(signedOut, true);
        }
        return;
      }
      note(signedOut, false);
      if (!answer.headers.get('content-type')?.startsWith('text/html')) return;
      if (typing()) {
        // The person began typing while it loaded: it waits for them.
        defer();
        return;
      }
      if (!next) return;
      showMain(next);
      note(paused, false);
      if (streaming()) note(offline, false);
    } catch (_) {
      // The server is gone for now: the page says so, and the event
      // stream's reconnect refreshes.
      down();
    } finally {
      loading = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  }

  // What the person had open and typed at the last refresh: a card's bar
  // fetched again after its card changed gets it back.
  let carried = { folds: [], typed: new Map() };

  /**
   * Puts the fragment `next` in main: what the person had open, typed and
   * where the keys were stay so.
   */
  function showMain(next) {
    const folds = [...main.querySelectorAll('details[open]')]
      .map((d) => idOf(d.closest('article') || main));
    const typed = typedValues();
    carried = { folds, typed };
    const focused = main.contains(document.activeElement);
    patch(main, next);
    restoreValues(typed);
    const mark = main.querySelector('.refresh');
    main.dataset.refreshAt = mark ? mark.dataset.refreshAt || '' : '';
    for (const card of cards()) {
      const fold = card.querySelector('details');
      if (fold && folds.includes(idOf(card))) fold.open = true;
    }
    reselect(focused);
    arm();
  }

  /**
   * Where a form's field is, whatever node holds it: its form's kind (two
   * forms of one action, the quick add and the full one, are two places),
   * action, target and name.
   */
  function fieldKey(field) {
    const form = field.form;
    if (!form || !form.matches('form.act')) return null;
    const target = form.querySelector('input[name="target"]');
    return `${form.className}\n${form.dataset.action}\n${target ? target.value : ''}\n${field.name}`;
  }

  /** What the person typed or chose in main's forms and has not sent. */
  function typedValues() {
    const typed = new Map();
    for (const field of main.querySelectorAll('form.act input[type=text], form.act textarea, form.act select')) {
      const changed = field.matches('select')
        ? [...field.options].some((o) => o.selected !== o.defaultSelected)
        : field.value !== field.defaultValue;
      const key = changed && fieldKey(field);
      if (key) typed.set(key, field.value);
    }
    return typed;
  }

  /** Puts `typed` back into the same fields of the page as it is now. */
  function restoreValues(typed) {
    if (!typed.size) return;
    for (const field of main.querySelectorAll('form.act input[type=text], form.act textarea, form.act select')) {
      const key = fieldKey(field);
      if (key && typed.has(key)) field.value = typed.get(key);
    }
  }

  /**
   * Makes `node`'s children those of `next`, replacing only the nodes that
   * differ: a change to one task redraws its card, not the whole board (the
   * page ends exactly as `innerHTML = next` would leave it).
   */
  function patch(node, next) {
    const have = [...node.childNodes];
    const want = [...next.childNodes];
    const same = have.length === want.length && have.every((n, i) => n.nodeType === want[i].nodeType &&
      n.nodeName === want[i].nodeName);
    if (!same) {
      reorder(node, have, want);
      return;
    }
    have.forEach((n, i) => {
      const w = want[i];
      if (n.isEqualNode(w)) return;
      if (n.nodeType !== Node.ELEMENT_NODE || n.matches('article, form, details') ||
        !sameAttributes(n, w)) {
        n.replaceWith(w);
      } else {
        patch(n, w);
      }
    });
  }

  /**
   * Makes `node`'s children `want` where they differ in number (a card came
   * or went): a card that stays as it was (same task, same markup) keeps
   * its node, and its place when nothing moved around it.
   */
  function reorder(node, have, want) {
    const mine = new Map();
    for (const n of have) {
      if (n.nodeType === Node.ELEMENT_NODE && n.dataset.task) mine.set(n.dataset.task, n);
    }
    const nodes = want.map((w) => {
      const n = w.nodeType === Node.ELEMENT_NODE && w.dataset.task ? mine.get(w.dataset.task) : undefined;
      if (!n || !n.isEqualNode(w)) return w;
      mine.delete(w.dataset.task);
      return n;
    });
    const kept = new Set(nodes);
    for (const n of have) if (!kept.has(n)) n.remove();
    let at = node.firstChild;
    for (const n of nodes) {
      if (n === at) at = at.nextSibling;
      else node.insertBefore(n, at);
    }
  }

  function sameAttributes(a, b) {
    if (a.attributes.length !== b.attributes.length) return false;
    return [...a.attributes].every((x) => b.getAttribute(x.name) === x.value);
  }

  /** Refreshes when the next lease shown on the page runs out. */
  function arm() {
    if (timer) clearTimeout(timer);
    timer = null;
    const at = Number(main.dataset.refreshAt || '');
    if (!at) return;
    const wait = Math.min(Math.max(at - Date.now() + 500, 500), 2147483000);
    timer = setTimeout(refresh, wait);
  }

  main.addEventListener('focusout', () => {
    if (deferred) {
      deferred = false;
      setTimeout(refresh, 0);
    }
  });

  // The count of the store's changes the page has been told of: the one
  // it was read at (page.rs), then each change's. The stream opens from
  // it, and says `change` at once when the page is behind: a page just
  // loaded is not read again as its stream opens.
  let since = document.body.dataset.since || '';

  /**
   * Listens to the store's changes. While the stream is down the page says
   * it is not live; the browser reconnects it by itself (its `retry`, from
   * the last change told), and one it gave up on (the server answered, but
   * not with the stream) is opened anew a moment later. A page that names
   * no count reads itself as the stream opens.
   */
  function listen() {
    const source = new EventSource(since ? `/events?since=${encodeURIComponent(since)}` : '/events');
    events = source;
    source.addEventListener('change', (event) => {
      if (event.lastEventId) since = event.lastEventId;
      refresh();
    });
    source.addEventListener('open', () => {
      if (since) note(offline, false);
      else refresh();
    });
    source.addEventListener('error', () => {
      down();
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(() => {
          listen();
          // While the person types the page is not redrawn, but it still
          // learns why the stream was refused (signed out).
          if (typing()) probe();
          else refresh();
        }, 2000);
      }
    });
  }

  /** Asks the server whether this browser is still signed in, drawing nothing. */
  async function probe() {
    try {
      const answer = await fetch(fragmentAddress(held()), { credentials: 'same-origin' });
      note(offline, false);
      note(signedOut, answer.status === 401);
    } catch (_) {
      down();
    }
  }

  if (window.EventSource) listen();
  arm();

  // ---- the forms --------------------------------------------------------

  function show(html, failed) {
    if (!flash) return;
    flash.innerHTML = html; // the component escaped it
    flash.classList.toggle('error', failed);
  }

  /**
   * The words of a page the server answered instead of the form's JSON (its
   * own refusal: signed out, busy, another origin), or null when the answer
   * is no page of the board's.
   */
  function refusalOf(text) {
    const page = new DOMParser().parseFromString(text, 'text/html');
    const said = page.querySelector('main#board');
    return said && said.children.length ? said.innerHTML : null;
  }

  /**
   * Sends `form` by fetch. Whatever happens the page stays and so does what
   * the form holds, until the component says it is done: no answer says
   * so (and the text waits in its field to be sent again); a refusal shows
   * its words.
   */
  async function send(form, confirmed) {
    const body = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (typeof value === 'string' && value !== '') body.append(name, value);
    }
    if (confirmed) body.set('confirmed', '1');
    let answer;
    let text;
    try {
      answer = await fetch('/act?part=json', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      });
      text = await answer.text();
    } catch (_) {
      down();
      note(unsent, true);
      return;
    }
    let reply = null;
    try {
      reply = JSON.parse(text);
    } catch (_) {
      const said = refusalOf(text);
      if (said === null) {
        // Not the board answering (a proxy's error page): as no answer.
        down();
        note(unsent, true);
      } else {
        note(unsent, false);
        if (answer.status === 401) note(signedOut, true);
        show(said, true);
      }
      return;
    }
    note(unsent, false);
    if (reply.outcome === 'confirm') {
      // The component asks itself (an action the key map does not mark).
      if (window.confirm(`${reply.title}\n\n${reply.message}`)) await send(form, true);
      return;
    }
    show(reply.html || '', reply.outcome !== 'done');
    if (reply.outcome === 'done') {
      form.reset();
      // What was typed in it is sent: no later redraw puts it back.
      for (const field of form.elements) {
        const key = fieldKey(field);
        if (key) carried.typed.delete(key);
      }
      // The form's field is done with: the keys go back to its card.
      if (form.contains(document.activeElement)) {
        const card = form.closest('article');
        if (card) card.focus({ preventScroll: true });
        else document.activeElement.blur();
      }
      // The page the form returns to, when it is another (a deleted task's list).
      const here = window.location.pathname + window.location.search;
      if (reply.location && reply.location !== here) {
        window.location.assign(reply.location);
        return;
      }
    }
    refresh();
  }

  // ---- asking first -----------------------------------------------------

  const ask = document.getElementById('ask');
  const question = document.getElementById('ask-question');
  const gone = document.getElementById('ask-gone');

  /** The binding of the key map a form is for, if any. */
  function bindingOf(form) {
    const key = form.dataset.key;
    return key ? keys.find((k) => k.key === key) || null : null;
  }

  /** What a form acts on: its card (a task's or a list's) and how it stands now. */
  function aimOf(form) {
    const holder = form.closest('article, header.list-head');
    const target = form.querySelector('input[name="target"]');
    return {
      action: form.dataset.action,
      key: form.dataset.key,
      target: target ? target.value : '',
      kind: holder && holder.dataset.task ? 'task' : 'list',
      state: holder ? standing(holder) : '',
      name: holder ? (holder.querySelector('.title, .name') || holder).textContent.trim() : '',
    };
  }

  /** Where a card stands: its status or approval, and its column. */
  function standing(holder) {
    const column = holder.closest('section.column');
    return [holder.dataset.status || '', holder.dataset.approval || '', column ? column.dataset.column : ''].join(' ');
  }

  /** The same form on the page as it is now, if its card still stands as it did. */
  function formAgain(aim) {
    const form = [...main.querySelectorAll('form.act')].find((f) => {
      const target = f.querySelector('input[name="target"]');
      return f.dataset.action === aim.action && f.dataset.key === aim.key && target && target.value === aim.target;
    });
    if (!form) return null;
    const holder = form.closest('article, header.list-head');
    return (holder ? standing(holder) : '') === aim.state ? form : null;
  }

  /**
   * Asks the component's question of `binding` about `form`'s card in the
   * page's dialog; on yes sends what the card was when asked, confirmed
   * (the one question, as the terminal asks it): never a neighbour, and
   * nothing when the card is gone or changed meanwhile.
   */
  function askFirst(form, binding) {
    const aim = aimOf(form);
    const words = ask.querySelector(`template[data-key="${CSS.escape(binding.key)}"][data-kind="${aim.kind}"]`);
    if (!words) {
      send(form, false);
      return;
    }
    const asked = words.content.cloneNode(true);
    const what = asked.querySelector('.what');
    if (what) what.textContent = aim.name;
    question.replaceChildren(asked);
    ask.returnValue = '';
    ask.addEventListener('close', async () => {
      if (ask.returnValue !== 'yes') return;
      // A card redrawn meanwhile gets its bar again before it is looked at.
      const holder = [...main.querySelectorAll('article.task')].find((el) => el.dataset.task === aim.target);
      await barOf(holder);
      const now = formAgain(aim);
      if (!now) {
        show(gone ? gone.innerHTML : '', true);
        return;
      }
      send(now, true);
    }, { once: true });
    ask.showModal();
  }

  document.addEventListener('submit', (event) => {
    const form = event.target.closest('form.act');
    if (!form) return;
    event.preventDefault();
    const binding = bindingOf(form);
    if (ask && binding && binding.input === 'confirm') askFirst(form, binding);
    else send(form, false);
  });

  // ---- the keys ---------------------------------------------------------

  const NAMES = {
    ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
    Enter: 'enter', Backspace: 'backspace', Escape: 'escape',
  };

  function cards() {
    return [...main.querySelectorAll(CARDS)]
      .filter((el) => el.offsetParent !== null);
  }

  function idOf(card) {
    return card.dataset.task || card.dataset.list || null;
  }

  function current() {
    return main.querySelector('article.selected');
  }

  function select(card) {
    for (const el of main.querySelectorAll('article.selected')) el.classList.remove('selected');
    selected = card ? idOf(card) : null;
    if (!card) return;
    card.classList.add('selected');
    card.focus({ preventScroll: true });
    card.scrollIntoView({ block: 'nearest' });
    barOf(card);
  }

  function reselect(focus) {
    if (!selected) return;
    const card = cards().find((el) => idOf(el) === selected);
    if (!card) return;
    card.classList.add('selected');
    if (focus) card.focus({ preventScroll: true });
    barOf(card);
  }

  // ---- the selected card's bar ------------------------------------------

  // A board's card carries no forms: the component sends a card's
  // (`part=actions`) when it is selected, and the page keeps them in it
  // until the card changes.
  const barsLoading = new WeakMap();

  /** The address of task `id`'s bar on this board. */
  function barAddress(id) {
    const url = new URL(window.location.href);
    url.searchParams.set('part', 'actions');
    url.searchParams.set('task', id);
    return url.pathname + url.search;
  }

  /** Fetches `card`'s bar unless it has one (or is no board's card); resolves once it is in. */
  function barOf(card) {
    if (!card || !card.matches('article.task[data-v]') || card.querySelector(':scope > .bar')) {
      return Promise.resolve();
    }
    let pending = barsLoading.get(card);
    if (!pending) {
      pending = loadBar(card).finally(() => barsLoading.delete(card));
      barsLoading.set(card, pending);
    }
    return pending;
  }

  async function loadBar(card) {
    let html;
    try {
      const answer = await fetch(barAddress(card.dataset.task), { credentials: 'same-origin' });
      html = await answer.text();
      if (answer.status !== 200 || html.startsWith('<!doctype')) return;
    } catch (_) {
      down();
      return;
    }
    if (!card.isConnected || card.querySelector(':scope > .bar')) return;
    const next = document.createElement('template');
    next.innerHTML = html;
    card.append(next.content);
    restoreValues(carried.typed);
    const fold = card.querySelector('details');
    if (fold && carried.folds.includes(idOf(card))) fold.open = true;
  }

  main.addEventListener('focusin', (event) => {
    const card = event.target.closest(CARDS);
    if (card && !card.classList.contains('selected')) {
      for (const el of main.querySelectorAll('article.selected')) el.classList.remove('selected');
      card.classList.add('selected');
      selected = idOf(card);
    }
    barOf(card);
  });

  function move(step) {
    const all = cards();
    if (!all.length) return;
    const at = all.indexOf(current());
    const next = at < 0 ? (step > 0 ? 0 : all.length - 1)
      : Math.min(Math.max(at + step, 0), all.length - 1);
    select(all[next]);
  }

  function open() {
    const card = current();
    if (!card) return;
    const link = card.querySelector('a.name, .head a');
    if (link) window.location.assign(link.href);
  }

  function toggleFinished() {
    const url = new URL(window.location.href);
    if (url.searchParams.get('finished') === 'hide') url.searchParams.delete('finished');
    else url.searchParams.set('finished', 'hide');
    window.location.assign(url.pathname + url.search);
  }

  /**
   * The form of a person's action key: in the selected card (or the one
   * card of a task's page), else the page's own.
   */
  function formFor(key) {
    const css = `form.act[data-key="${CSS.escape(key)}"]`;
    const all = cards();
    const card = current() || (all.length === 1 ? all[0] : null);
    if (card) {
      const mine = card.querySelector(css);
      if (mine) return mine;
    }
    return [...main.querySelectorAll(css)].find((f) => !f.closest('article')) || null;
  }

  async function act(binding) {
    const all = cards();
    await barOf(current() || (all.length === 1 ? all[0] : null));
    const form = formFor(binding.key);
    if (!form) return;
    const field = form.querySelector('input[type=text], textarea');
    if (field) {
      const fold = form.closest('details');
      if (fold) fold.open = true;
      field.focus();
      return;
    }
    form.requestSubmit();
  }

  // The keys' panel (help.rs): its own key, named by the page, shows or
  // hides it, as does the header's hint; Esc closes it.
  const help = document.getElementById('keys');
  const hint = document.querySelector('header.top .keys-hint');

  function toggleHelp(on) {
    if (!help) return;
    help.hidden = !on;
    if (hint) hint.ariaExpanded = on ? 'true' : 'false';
  }

  if (hint) hint.addEventListener('click', () => toggleHelp(!!help && help.hidden));

  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    // The question being asked takes its own keys (Esc: no).
    if (ask && ask.open) return;
    const target = event.target;
    if (target.closest && target.closest('input, textarea, select, [contenteditable]')) {
      if (event.key === 'Escape') target.blur();
      return;
    }
    if (help && event.key === help.dataset.toggle) {
      event.preventDefault();
      toggleHelp(help.hidden);
      return;
    }
    if (help && !help.hidden && event.key === 'Escape') {
      event.preventDefault();
      toggleHelp(false);
      return;
    }
    const name = NAMES[event.key] || event.key;
    // A focused link or button keeps its own Enter.
    if (name === 'enter' && target.closest && target.closest('a, button, summary')) return;
    const binding = keys.find((k) => k.key === name);
    if (!binding) return;
    event.preventDefault();
    switch (binding.action) {
      case 'select-next': move(1); break;
      case 'select-previous': move(-1); break;
      case 'open': open(); break;
      case 'back': window.history.back(); break;
      case 'hide-finished': toggleFinished(); break;
      case 'close': select(null); show('', false); note(unsent, false); break;
      default: act(binding);
    }
  });

  // What the script's other parts (find.js, drag.js, edit.js, look.js)
  // build on: they add ways to reach these, never rules of their own.
  window.tasklistsBoard = {
    main, keys, cards, current, select, act, send, show, refresh, barOf,
  };
})();
