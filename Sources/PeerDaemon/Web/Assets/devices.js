// The devices page (#/devices): this person's devices and the peers this daemon knows.

import { api, badge, current, formatDate, h, shortId, viewRoot, who } from './core.js';

function connection(entry) {
  if (entry.paused) return badge('paused', 'warn');
  return entry.connected ? badge('connected', 'ok') : badge('not connected', '');
}

export async function loadDevices(route, seq) {
  const [me, devices, peers] = await Promise.all([api('id'), api('device.list'), api('peers')]);
  if (!current(seq)) return;
  document.title = 'Devices · PeerShare';
  const deviceTable = h(
    'table',
    { class: 'table', id: 'devices' },
    h('thead', null, h('tr', null, h('th', null, 'Device'), h('th', null, 'ID'), h('th', null, 'Connection'), h('th', null, 'Last seen'))),
    h(
      'tbody',
      null,
      devices.map((d) =>
        h(
          'tr',
          { class: 'device', dataset: { id: d.device_id || d.id } },
          h('td', null, h('span', null, d.name || shortId(d.id)), d.this_device ? badge('this device', 'ok') : null),
          h('td', { class: 'mono', title: d.device_id || d.id }, shortId(d.device_id || d.id)),
          h('td', null, d.this_device ? '—' : connection(d)),
          h('td', null, d.this_device ? 'now' : formatDate(d.last_seen)),
        ),
      ),
    ),
  );
  const peerTable = peers.length
    ? h(
      'table',
      { class: 'table', id: 'peers' },
      h('thead', null, h('tr', null, h('th', null, 'Peer'), h('th', null, 'Connection'), h('th', null, 'Address'), h('th', null, 'Last seen'))),
      h(
        'tbody',
        null,
        peers.map((p) =>
          h(
            'tr',
            { class: 'peer', dataset: { id: p.id || p.peer_id, connected: p.connected ? 'true' : 'false' } },
            h('td', { title: p.id || p.peer_id }, who(p)),
            h(
              'td',
              null,
              connection(p),
              p.connected && p.in_sync ? badge('in sync', 'ok') : null,
              !p.connected && p.last_error ? h('div', { class: 'muted small' }, p.last_error) : null,
            ),
            h('td', { class: 'mono' }, p.address || '—'),
            h('td', null, formatDate(p.last_seen)),
          ),
        ),
      ),
    )
    : h('p', { class: 'muted', id: 'peers' }, 'No peers yet: they appear when you share or join a share.');
  viewRoot.replaceChildren(
    h(
      'section',
      { class: 'devices-page' },
      h('h1', null, 'Devices'),
      h(
        'section',
        { class: 'card' },
        h('h2', null, me.person_name ? `${me.person_name}’s devices` : 'Your devices'),
        h('p', { class: 'muted' }, 'Person ID ', h('code', { id: 'person-id' }, me.person_id)),
        deviceTable,
      ),
      h('section', { class: 'card' }, h('h2', null, 'Peers'), peerTable),
    ),
  );
}
