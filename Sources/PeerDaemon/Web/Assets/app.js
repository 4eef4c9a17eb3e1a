// The PeerShare gallery: one page with hash routes over peershared's HTTP API (docs/WEB.md).
//
// This module routes (#/, #/photo/ID, #/shares, #/devices) and follows /events: on any event
// it fetches what the page shows again, once a burst of events is over.

import { clearMessage, h, reportError, setRefresher, state, viewRoot } from './core.js';
import { loadDevices } from './devices.js';
import { enterGrid, refreshGrid } from './grid.js';
import { loadPhoto } from './photo.js';
import { loadShares } from './shares.js';

const REFRESH_DELAY_MS = 200;
// Event types peershared streams (docs/CONTROL.md, `watch`); EventSource dispatches a named
// event only to listeners of that name.
const EVENT_TYPES = [
  'message', 'history', 'share.request', 'daemon.reloaded', 'daemon.reload_failed', 'daemon.stopping',
  'peer.connected', 'peer.disconnected', 'peer.refused', 'peer.dial_failed', 'sync.applied',
  'sync.refused', 'data.fetched', 'data.failed', 'thumbnail.ready', 'thumbnail.failed',
];

function parseRoute() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = raw.split('?');
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0) {
    const params = new URLSearchParams(query);
    const filters = {};
    for (const key of ['share', 'tag', 'device']) {
      if (params.get(key)) filters[key] = params.get(key);
    }
    return { name: 'grid', filters, key: new URLSearchParams(filters).toString() };
  }
  if (parts[0] === 'photo' && parts[1]) return { name: 'photo', id: decodeURIComponent(parts[1]) };
  if (parts[0] === 'shares') return { name: 'shares' };
  if (parts[0] === 'devices') return { name: 'devices' };
  return { name: 'missing' };
}

const views = {
  grid: { enter: enterGrid, refresh: refreshGrid },
  photo: { enter: loadPhoto, refresh: loadPhoto },
  shares: { enter: loadShares, refresh: loadShares },
  devices: { enter: loadDevices, refresh: loadDevices },
  missing: { enter: showMissing, refresh: () => {} },
};

async function navigate() {
  if (state.route && state.route.name === 'grid' && state.grid) state.grid.scrollY = window.scrollY;
  const route = parseRoute();
  const changedPage = !state.route || state.route.name !== route.name || state.route.id !== route.id;
  state.route = route;
  if (route.name === 'grid') state.lastGridHash = location.hash || '#/';
  for (const link of document.querySelectorAll('.nav a')) {
    const current = link.dataset.nav === route.name || (route.name === 'photo' && link.dataset.nav === 'grid');
    link.classList.toggle('active', current);
  }
  if (changedPage) clearMessage(); // it was about the page left
  if (changedPage && route.name !== 'grid') window.scrollTo(0, 0);
  state.seq += 1;
  try {
    await views[route.name].enter(route, state.seq);
  } catch (error) {
    reportError(error);
  }
}

async function refresh() {
  clearTimeout(state.refreshTimer);
  state.refreshTimer = null;
  if (!state.route) return;
  state.seq += 1;
  try {
    await views[state.route.name].refresh(state.route, state.seq);
  } catch (error) {
    reportError(error);
  }
}

function scheduleRefresh() {
  clearTimeout(state.refreshTimer);
  state.refreshTimer = setTimeout(refresh, REFRESH_DELAY_MS);
}

function showMissing() {
  document.title = 'Not found · PeerShare';
  viewRoot.replaceChildren(
    h('section', { class: 'card empty' }, h('h1', null, 'Nothing here'), h('a', { href: '#/' }, 'Back to the photos')),
  );
}

function followEvents() {
  const indicator = document.getElementById('live');
  const source = new EventSource('/events');
  source.addEventListener('open', () => {
    indicator.className = 'live on';
    indicator.title = 'Live: changes from any device show up at once';
    scheduleRefresh(); // whatever changed while the stream was down
  });
  source.addEventListener('error', () => {
    indicator.className = 'live off';
    indicator.title = 'Not live: reconnecting to peershared…';
  });
  for (const type of EVENT_TYPES) source.addEventListener(type, scheduleRefresh);
}

setRefresher(refresh);
document.getElementById('message-close').addEventListener('click', clearMessage);
window.addEventListener('hashchange', navigate);
navigate();
followEvents();
