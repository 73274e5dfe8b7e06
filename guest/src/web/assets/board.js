// The board's transport (tasklists serve): the live refresh, the forms sent
// without leaving the page, and the key map's keys. It has no logic of its
// own: every page, word and rule comes from the component; this only moves
// them (and runs on CSP `script-src 'self'`: no inline anything).
'use strict';

(() => {
  const main = document.getElementById('board');
  const flash = document.getElementById('flash');
  if (!main) return;
  const keys = JSON.parse(document.body.dataset.keys || '[]');

  // ---- the live refresh -------------------------------------------------

  let selected = null; // the data-task / data-list of the selected card
  let loading = false;
  let again = false;
  let deferred = false;
  let timer = null;

  /** The page's own address with part=main: only main's inner HTML. */
  function fragmentAddress() {
    const url = new URL(window.location.href);
    url.searchParams.set('part', 'main');
    return url.pathname + url.search;
  }

  /** Whether the person is in a field of main (a refresh would take it away). */
  function typing() {
    const el = document.activeElement;
    return !!el && main.contains(el) && el.matches('input, textarea, select');
  }

  async function refresh() {
    if (typing()) {
      deferred = true;
      return;
    }
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    try {
      const answer = await fetch(fragmentAddress(), { credentials: 'same-origin' });
      const html = await answer.text();
      if (html.startsWith('<!doctype')) {
        // Not a fragment: the server refused the request itself (signed
        // out: the reload shows its page; busy: the next change retries).
        if (answer.status === 401) window.location.reload();
        return;
      }
      if (answer.headers.get('content-type')?.startsWith('text/html') && !typing()) {
        // What the person had open and where the keys were stay so.
        const folds = [...main.querySelectorAll('details[open]')]
          .map((d) => idOf(d.closest('article') || main));
        const focused = main.contains(document.activeElement);
        const next = document.createElement('template');
        next.innerHTML = html;
        patch(main, next.content);
        const mark = main.querySelector('.refresh');
        main.dataset.refreshAt = mark ? mark.dataset.refreshAt || '' : '';
        for (const card of cards()) {
          const fold = card.querySelector('details');
          if (fold && folds.includes(idOf(card))) fold.open = true;
        }
        reselect(focused);
        arm();
      }
    } catch (_) {
      // The server is gone for now: the event stream's reconnect refreshes.
    } finally {
      loading = false;
      if (again) {
        again = false;
        refresh();
      }
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
      node.replaceChildren(...want);
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

  if (window.EventSource) {
    const events = new EventSource('/events');
    events.addEventListener('change', refresh);
    events.addEventListener('open', refresh);
  }
  arm();

  // ---- the forms --------------------------------------------------------

  function show(html, failed) {
    if (!flash) return;
    flash.innerHTML = html; // the component escaped it
    flash.classList.toggle('error', failed);
  }

  async function send(form, confirmed) {
    const body = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (typeof value === 'string' && value !== '') body.append(name, value);
    }
    if (confirmed) body.set('confirmed', '1');
    let answer;
    try {
      answer = await fetch('/act?part=json', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      });
    } catch (_) {
      // No answer at all: send it the plain way, the browser says why.
      form.submit();
      return;
    }
    let reply = null;
    try {
      reply = await answer.json();
    } catch (_) {
      // The server's own refusal (sign-in, origin): its page says why.
      window.location.reload();
      return;
    }
    if (reply.outcome === 'confirm') {
      if (window.confirm(`${reply.title}\n\n${reply.message}`)) await send(form, true);
      return;
    }
    show(reply.html || '', reply.outcome !== 'done');
    if (reply.outcome === 'done') {
      form.reset();
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

  document.addEventListener('submit', (event) => {
    const form = event.target.closest('form.act');
    if (!form) return;
    event.preventDefault();
    send(form, false);
  });

  // ---- the keys ---------------------------------------------------------

  const NAMES = {
    ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
    Enter: 'enter', Backspace: 'backspace', Escape: 'escape',
  };

  function cards() {
    return [...main.querySelectorAll('article.task, article.list')]
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
  }

  function reselect(focus) {
    if (!selected) return;
    const card = cards().find((el) => idOf(el) === selected);
    if (!card) return;
    card.classList.add('selected');
    if (focus) card.focus({ preventScroll: true });
  }

  main.addEventListener('focusin', (event) => {
    const card = event.target.closest('article.task, article.list');
    if (card && !card.classList.contains('selected')) {
      for (const el of main.querySelectorAll('article.selected')) el.classList.remove('selected');
      card.classList.add('selected');
      selected = idOf(card);
    }
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

  function act(binding) {
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

  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.closest && target.closest('input, textarea, select, [contenteditable]')) {
      if (event.key === 'Escape') target.blur();
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
      case 'close': select(null); show('', false); break;
      default: act(binding);
    }
  });
})();
