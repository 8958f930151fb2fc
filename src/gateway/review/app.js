// The review page's script. Everything an upstream or a client chose (names, descriptions,
// schemas, arguments, audit records) is put in the page with textContent or as a text node, never
// as markup: a tool description holding <script> or <img onerror> stays text. The page's
// Content-Security-Policy allows no inline script either.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const TOKEN_KEY = 'mcp-trust-review-token';
  let token = sessionStorage.getItem(TOKEN_KEY) || '';
  if (location.hash.startsWith('#token=')) {
    token = decodeURIComponent(location.hash.slice('#token='.length));
    sessionStorage.setItem(TOKEN_KEY, token);
    history.replaceState(null, '', location.pathname);  // out of the address bar and history
  }
  let lastText = '';
  let busy = false;

  // An element with attributes and children; strings become text nodes.
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') e.className = v;
      else if (k === 'onclick') e.addEventListener('click', v);
      else e.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
    return e;
  }
  function replace(container, ...children) {
    container.replaceChildren(...children);
  }
  function say(text) { $('status').textContent = text; }

  async function api(path, body) {
    const init = { headers: { 'X-Review-Token': token }, cache: 'no-store' };
    if (body) {
      init.method = 'POST';
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) {
      const err = new Error((data && data.error) || ('HTTP ' + res.status));
      err.status = res.status;
      throw err;
    }
    return data;
  }

  // Side by side, line by line: the longest common subsequence of the two texts' lines; what is
  // only on the left was removed, only on the right added. Bounded: long texts are shown whole.
  function diffRows(before, after) {
    const a = before.split('\n'), b = after.split('\n');
    if (a.length * b.length > 4000000) return a.length > b.length ? a.map((l, i) => [l, b[i] ?? '', true]) : b.map((l, i) => [a[i] ?? '', l, true]);
    const n = a.length, m = b.length;
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    const rows = [];
    let i = 0, j = 0, dels = [], adds = [];
    const flush = () => {
      for (let k = 0; k < Math.max(dels.length, adds.length); k++) rows.push([dels[k] ?? null, adds[k] ?? null, true]);
      dels = []; adds = [];
    };
    while (i < n || j < m) {
      if (i < n && j < m && a[i] === b[j]) { flush(); rows.push([a[i], b[j], false]); i++; j++; }
      else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) adds.push(b[j++]);
      else dels.push(a[i++]);
    }
    flush();
    return rows;
  }

  const pretty = (v) => (v === null || v === undefined ? '' : JSON.stringify(v, null, 2));

  function changedFields(before, after) {
    if (!before || !after) return [];
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
  }

  // `question`, if given, is asked first (window.confirm): a No leaves everything as it was.
  function decideButton(label, cls, key, action, question) {
    return el('button', { class: cls, type: 'button', 'data-key': key, onclick: async (ev) => {
      if (question && !window.confirm(question)) return;
      ev.target.disabled = true;
      try { say(await action()); } catch (e) { say('Not done: ' + e.message); }
      refresh();
    } }, label);
  }

  function renderCalls(pending) {
    $('calls-count').textContent = pending.length ? '(' + pending.length + ')' : '';
    if (!pending.length) return replace($('calls'), el('p', { class: 'empty' }, 'No call is waiting.'));
    replace($('calls'), ...pending.map((c) => el('article', { class: 'card', 'aria-label': 'call ' + c.id },
      el('h3', {}, 'Call ' + c.id + ': ', el('code', {}, c.method), ' of ', el('code', {}, c.item), ' on ', el('code', {}, c.server)),
      el('p', { class: 'meta' }, 'from client session ' + c.client + ', asked ' + c.created + ', denied unless decided by ' + c.deadline),
      el('pre', {}, c.arguments),
      el('div', { class: 'actions' },
        decideButton('Allow', 'yes', 'allow-' + c.id, async () => {
          await api('/ui/api/calls', { id: c.id, decision: 'allow' });
          return 'Allowed call ' + c.id + '.';
        }),
        decideButton('Deny', 'no', 'deny-' + c.id, async () => {
          await api('/ui/api/calls', { id: c.id, decision: 'deny' });
          return 'Denied call ' + c.id + '.';
        })))));
  }

  function diffTable(before, after) {
    const rows = diffRows(pretty(before), pretty(after));
    return el('table', { class: 'diff' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, before ? 'Approved' : '(never approved)'), el('th', { scope: 'col' }, 'Offered now'))),
      el('tbody', {}, ...rows.map(([l, r, changed]) => el('tr', {},
        el('td', { class: changed && l !== null ? 'del' : '' }, l ?? ''),
        el('td', { class: changed && r !== null ? 'add' : '' }, r ?? '')))));
  }

  function renderChanges(items) {
    $('changes-count').textContent = items.length ? '(' + items.length + ')' : '';
    if (!items.length) return replace($('changes'), el('p', { class: 'empty' }, 'Nothing waits for review.'));
    replace($('changes'), ...items.map((q) => {
      const id = q.server + '/' + q.kind + '/' + q.key;
      const why = q.state === 'rejected' ? 'rejected' : q.approved ? 'changed since it was approved' : 'new, never approved';
      const fields = changedFields(q.approved, q.seen);
      return el('article', { class: 'card', 'aria-label': q.kind + ' ' + q.key + ' of ' + q.server },
        el('h3', {}, q.kind.replace(/s$/, '') + ' ', el('code', {}, q.key), ' of ', el('code', {}, q.server), ': ',
          el('span', { class: 'state-' + q.state }, why)),
        fields.length ? el('p', { class: 'fields' }, 'Changed: ', ...fields.map((f) => el('span', {}, f))) : null,
        diffTable(q.approved, q.seen),
        el('div', { class: 'actions' },
          // No hash: the definition is too large to show here, so it cannot be approved here.
          !q.seenHash ? null : decideButton('Approve', 'yes', 'approve-' + id, async () => {
            await api('/ui/api/pins', { server: q.server, kind: q.kind, key: q.key, seenHash: q.seenHash, decision: 'approve' });
            return 'Approved ' + q.key + ' of ' + q.server + '.';
          }),
          q.state === 'rejected' ? null : decideButton('Reject', 'no', 'reject-' + id, async () => {
            await api('/ui/api/pins', { server: q.server, kind: q.kind, key: q.key, decision: 'reject' });
            return 'Rejected ' + q.key + ' of ' + q.server + '.';
          })));
    }));
  }

  // A pin dropped after the person confirms: the item is pinned afresh, as a new one, the next time
  // its upstream lists it (quarantined again if that upstream holds new items).
  function forgetButton(p) {
    if (!p.forget) return '';
    const what = p.kind.replace(/s$/, '') + ' ' + p.key + ' of ' + p.server;
    const question = 'Forget the pin of ' + what + '? Its approval or rejection goes with it; it is pinned afresh, ' +
      'as a new item, when ' + p.server + ' lists it again.';
    return decideButton('Forget', 'no', 'forget-' + p.server + '/' + p.kind + '/' + p.key, async () => {
      await api('/ui/api/pins', { server: p.server, kind: p.kind, key: p.key, decision: 'forget' });
      return 'Forgot the pin of ' + what + '.';
    }, question);
  }

  function rows(table, items, cells) {
    const cell = (c) => (c instanceof Node ? el('td', {}, c) : c && c.cls ? el('td', { class: c.cls }, c.text) : el('td', {}, c));
    replace(table.tBodies[0], ...items.map((it) => el('tr', {}, ...cells(it).map(cell))));
  }

  function render(s) {
    renderCalls(s.pending);
    renderChanges(s.quarantined);
    if (s.notShown) $('changes').append(el('p', { class: 'empty' }, s.notShown + ' more waiting are too large to list here at once: decide these first.'));
    const waiting = {};
    for (const q of s.quarantined) waiting[q.server] = (waiting[q.server] || 0) + 1;
    rows($('upstreams'), s.upstreams, (u) => [u.name, { text: u.status, cls: u.status === 'connected' ? 'intact' : 'restarting' }, u.restarts, waiting[u.name] || 0]);
    const chain = s.audit.chain;
    $('chain').className = chain.intact ? 'intact' : 'broken';
    const kept = chain.prunedThrough
      ? (chain.records - chain.prunedThrough) + ' records (records 1 to ' + chain.prunedThrough + ' pruned)'
      : chain.records + ' records';
    $('chain').textContent = chain.intact
      ? 'The chain is intact: ' + kept + ', the last hashing to ' + chain.head + '.'
      : 'The chain is BROKEN' + (chain.firstBroken ? ' at record ' + chain.firstBroken : '') + ': ' + chain.why;
    rows($('audit'), s.audit.records, (r) => [r.seq, r.time, r.kind, JSON.stringify(r.body).slice(0, 300)]);
    rows($('decided'), s.decided, (c) => [c.id, c.method + ' ' + c.item + ' (' + c.server + ')',
      { text: c.decision + (c.reason ? ': ' + c.reason : ''), cls: c.decision === 'allow' ? 'intact' : 'broken' }, c.decidedBy || '']);
    $('pins-count').textContent = '(' + s.pins.total + (s.pins.total > s.pins.items.length ? ', first ' + s.pins.items.length + ' shown' : '') + ')';
    rows($('pins'), s.pins.items, (p) => [p.server, p.kind, p.key, { text: p.state, cls: 'state-' + p.state }, p.updated, forgetButton(p)]);
  }

  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      const s = await api('/ui/api/state');
      const text = JSON.stringify(s);
      $('token-form').hidden = true;
      $('main').hidden = false;
      if (text !== lastText) {
        lastText = text;
        // Keep the keyboard where it was: the re-rendered button with the same key gets the focus back.
        const focused = document.activeElement && document.activeElement.getAttribute('data-key');
        render(s);
        if (focused) {
          const again = document.querySelector('[data-key="' + CSS.escape(focused) + '"]');
          if (again) again.focus();
        }
      }
      if (!$('status').textContent || $('status').textContent.startsWith('updated') || $('status').textContent === 'loading…')
        say('updated ' + new Date().toLocaleTimeString());
    } catch (e) {
      if (e.status === 401) { $('token-form').hidden = false; $('main').hidden = true; say(e.message); }
      else say('The gateway did not answer: ' + e.message);
    } finally {
      busy = false;
    }
  }

  $('token').addEventListener('submit', (ev) => {
    ev.preventDefault();
    token = $('token-input').value.trim();
    sessionStorage.setItem(TOKEN_KEY, token);
    lastText = '';
    refresh();
  });
  refresh();
  setInterval(refresh, 1000);
})();
