// The shares page (#/shares): accept a URL; every share with its participants and requests.

import { act, api, badge, copyText, current, formatDate, h, keepingInputs, shortId, showMessage, viewRoot, who } from './core.js';

function shareStatus(share) {
  if (share.ended) return badge(`ended: ${share.ended.reason}`, 'warn');
  if (share.stopped) return badge('stopped', 'warn');
  return badge('active', 'ok');
}

function participantRows(share) {
  if (!share.participants || share.participants.length === 0) {
    return h('p', { class: 'muted' }, share.role === 'owner' ? 'Nobody has joined yet.' : 'No other participants.');
  }
  return h(
    'table',
    { class: 'table participants' },
    h('thead', null, h('tr', null, h('th', null, 'Who'), h('th', null, 'Permission'), h('th', null, 'Status'))),
    h(
      'tbody',
      null,
      share.participants.map((p) =>
        h(
          'tr',
          { class: 'participant', dataset: { peer: p.peer_id || p.id, status: p.status } },
          h('td', { title: p.peer_id || p.id }, who(p)),
          h('td', null, p.permission),
          h('td', null, badge(p.status, p.status === 'accepted' ? 'ok' : p.status === 'removed' ? 'warn' : '')),
        ),
      ),
    ),
  );
}

function requestRows(share) {
  if (!share.requests || share.requests.length === 0) return null;
  return h(
    'div',
    { class: 'requests' },
    h('h3', null, 'Asking to join'),
    share.requests.map((request) =>
      h(
        'div',
        { class: 'request', dataset: { peer: request.peer_id } },
        h('span', { title: request.peer_id }, `${shortId(request.person_id || request.peer_id)} · ${formatDate(request.requested_at)}`),
        h('button', {
          type: 'button',
          class: 'button',
          onclick: (event) => act(event.currentTarget, () => api('share.approve', { share: share.id, peer: request.peer_id })),
        }, 'Approve'),
        h('button', {
          type: 'button',
          class: 'button subtle',
          onclick: (event) => act(event.currentTarget, () => api('share.deny', { share: share.id, peer: request.peer_id })),
        }, 'Deny'),
      ),
    ),
  );
}

function shareCard(share) {
  const owner = share.role === 'owner'
    ? 'You own it'
    : `Owned by ${share.owner_person_name || share.owner_device_name || shortId(share.owner_person_id || share.owner)}`;
  let url = null;
  if (share.url) {
    const input = h('input', { type: 'text', readonly: true, value: share.url, class: 'share-card-url', 'aria-label': 'Share URL' });
    input.addEventListener('focus', () => input.select());
    url = h('div', { class: 'inline-form' }, input, h('button', { type: 'button', class: 'button', onclick: () => copyText(share.url, input) }, 'Copy'));
  }
  return h(
    'article',
    { class: 'card share', dataset: { id: share.id } },
    h(
      'header',
      { class: 'card-head' },
      h('h2', { class: 'share-title' }, h('a', { href: `#/?share=${encodeURIComponent(share.id)}` }, share.title || share.id.slice(0, 8))),
      shareStatus(share),
      badge(share.role),
    ),
    h(
      'p',
      { class: 'muted' },
      `${owner} · you may ${share.permission === 'read-write' ? 'view and edit' : share.permission === 'read-only' ? 'view' : 'no longer open it'}`,
      share.role === 'owner' ? ` · anyone with the URL: ${share.public_permission === 'none' ? 'only invited people' : share.public_permission}` : '',
    ),
    share.ended ? h('p', { class: 'ended-note' }, share.ended.message) : null,
    participantRows(share),
    requestRows(share),
    url,
    share.ended
      ? h('button', {
        type: 'button',
        class: 'button subtle',
        onclick: (event) => act(event.currentTarget, () => api('share.dismiss', { share: share.id })),
      }, 'Dismiss')
      : null,
  );
}

function acceptForm() {
  const input = h('input', { id: 'accept-url', type: 'text', placeholder: 'peershare://…', autocomplete: 'off', 'aria-label': 'Share URL' });
  const button = h('button', { id: 'accept-submit', type: 'submit', class: 'button primary' }, 'Join');
  const form = h('form', { class: 'inline-form', id: 'accept-form' }, input, button);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const url = input.value.trim();
    if (!url) return;
    act(button, async () => {
      const result = await api('accept', { url });
      input.value = '';
      showMessage(`Joined “${result.title}” (${result.permission}). Its photos arrive in a moment.`, 'info');
    });
  });
  return h(
    'section',
    { class: 'card accept' },
    h('h2', null, 'Accept a share URL'),
    h('p', { class: 'muted' }, 'Paste the peershare:// URL someone sent you.'),
    form,
  );
}

export async function loadShares(route, seq) {
  const shares = await api('share.list');
  if (!current(seq)) return;
  document.title = 'Shares · PeerShare';
  keepingInputs(() =>
    viewRoot.replaceChildren(
      h(
        'section',
        { class: 'shares-page' },
        h('h1', null, 'Shares'),
        acceptForm(),
        h(
          'div',
          { class: 'share-list', id: 'share-list' },
          shares.length ? shares.map(shareCard) : h('p', { class: 'empty' }, 'No shares yet. Open a photo and choose Share… to make one.'),
        ),
      ),
    ),
  );
}
