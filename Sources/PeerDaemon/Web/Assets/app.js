// The PeerShare gallery: one page with hash routes over peershared's HTTP API (docs/WEB.md).
//
// Every request is a POST /api/COMMAND with the control protocol's arguments and the session's
// CSRF token; every DOM node is built with createElement and text nodes (names and tags come
// from other people's devices: never HTML). The page follows /events and re-fetches what it
// shows when anything changes.
'use strict';

const PAGE_SIZE = 100;
const REFRESH_DELAY_MS = 200;
// Event types peershared streams (docs/CONTROL.md, `watch`); EventSource dispatches a named
// event only to listeners of that name.
const EVENT_TYPES = [
  'message', 'history', 'share.request', 'daemon.reloaded', 'daemon.reload_failed', 'daemon.stopping',
  'peer.connected', 'peer.disconnected', 'peer.refused', 'peer.dial_failed', 'sync.applied',
  'sync.refused', 'data.fetched', 'data.failed', 'thumbnail.ready', 'thumbnail.failed',
];

const csrfToken = document.querySelector('meta[name="csrf-token"]').content;
const viewRoot = document.getElementById('view');

const state = {
  route: null,
  seq: 0, // bumped by every navigation and refresh: older answers are dropped
  grid: null, // the grid of the last #/ visited, kept to come back to it where one left it
  lastGridHash: '#/',
  openShareForm: null, // the photo whose "Share…" form is open
  lastShare: null, // {photo, url}: the share just made from the page
  refreshTimer: null,
};

// ---- DOM -------------------------------------------------------------------------------

/** An element with attributes (`class`, `dataset`, `onEVENT` handlers) and children. */
function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Rebuilds a view's content while keeping what the user is typing (values, focus, caret). */
function keepingInputs(fn) {
  const values = new Map();
  for (const input of viewRoot.querySelectorAll('input[id], select[id]')) {
    if (input.type !== 'hidden' && !input.readOnly) values.set(input.id, input.value);
  }
  const focused = document.activeElement && document.activeElement.id;
  let caret = null;
  if (focused && document.activeElement.selectionStart !== undefined) {
    caret = [document.activeElement.selectionStart, document.activeElement.selectionEnd];
  }
  fn();
  for (const [id, value] of values) {
    const input = document.getElementById(id);
    if (input && !input.readOnly) input.value = value;
  }
  const again = focused && document.getElementById(focused);
  if (again) {
    again.focus();
    if (caret && again.setSelectionRange) {
      try {
        again.setSelectionRange(caret[0], caret[1]);
      } catch (_) {
        // not a text input
      }
    }
  }
}

// ---- Formatting ------------------------------------------------------------------------

function formatSize(bytes) {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

function formatDate(iso) {
  if (!iso) return 'never';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** The first group of a peer or person ID (`IACODSE-PA4…`): enough to tell peers apart. */
function shortId(id) {
  return id ? id.split('-')[0] : '?';
}

function stars(value) {
  const n = Math.max(0, Math.min(5, Math.round(value)));
  return '★'.repeat(n) + '☆'.repeat(5 - n);
}

function averageRating(ratings) {
  if (!ratings || ratings.length === 0) return null;
  return ratings.reduce((sum, r) => sum + r.value, 0) / ratings.length;
}

function extensionOf(name) {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1) : '';
  return ext && ext.length <= 5 ? ext.toUpperCase() : 'FILE';
}

/** Who a person/device is, in words: display names when known, else the ID's first group. */
function who(entry) {
  const person = entry.person_name;
  const device = entry.device_name;
  if (person && device) return `${person} (${device})`;
  return person || device || shortId(entry.peer_id || entry.id);
}

// ---- API and messages --------------------------------------------------------------------

class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** Runs one control command through POST /api/COMMAND; its result, or an ApiError. */
async function api(command, args = {}) {
  let response;
  try {
    response = await fetch(`/api/${command}`, {
      method: 'POST',
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { 'Content-Type': 'application/json', 'X-PeerShare-CSRF': csrfToken },
      body: JSON.stringify(args),
    });
  } catch (_) {
    throw new ApiError('unreachable', 'Cannot reach peershared: is it still running?');
  }
  if (response.status === 401) {
    throw new ApiError('unauthorized', 'This session has ended: run `peershare ui` to open the gallery again.');
  }
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    // not JSON: said below
  }
  if (!body || typeof body !== 'object') {
    throw new ApiError(`http_${response.status}`, `The gallery server answered ${response.status} ${response.statusText}`);
  }
  if (!body.ok) {
    const error = body.error || {};
    throw new ApiError(error.code || 'error', error.message || `${command} failed`);
  }
  return body.result;
}

function showMessage(text, kind = 'error', code = '') {
  const box = document.getElementById('message');
  box.className = `message ${kind}`;
  box.dataset.code = code;
  document.getElementById('message-text').textContent = text;
  box.hidden = false;
}

function clearMessage() {
  const box = document.getElementById('message');
  box.hidden = true;
  box.dataset.code = '';
}

function reportError(error) {
  if (error instanceof ApiError) showMessage(error.message, 'error', error.code);
  else showMessage(String(error && error.message ? error.message : error), 'error', 'script');
}

/** Runs a user's action with its button disabled; shows a refusal; then refreshes the view. */
async function act(button, fn) {
  if (button) button.disabled = true;
  try {
    await fn();
    clearMessage();
  } catch (error) {
    reportError(error);
  } finally {
    if (button) button.disabled = false;
  }
  await refresh();
}

async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (_) {
    input.select();
    document.execCommand('copy');
  }
  showMessage('Copied the share URL. Treat it like a password: anyone holding it may ask to join.', 'info');
}

// ---- Routing -----------------------------------------------------------------------------

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

/** True while no newer navigation or refresh has started since `seq` was taken. */
function current(seq) {
  return seq === state.seq;
}

function showMissing() {
  document.title = 'Not found · PeerShare';
  viewRoot.replaceChildren(
    h('section', { class: 'card empty' }, h('h1', null, 'Nothing here'), h('a', { href: '#/' }, 'Back to the photos')),
  );
}

// ---- Grid ---------------------------------------------------------------------------------

function placeholder(name, big = false) {
  return h(
    'div',
    { class: big ? 'placeholder placeholder-big' : 'placeholder' },
    h('span', { class: 'placeholder-ext' }, extensionOf(name)),
    h('span', { class: 'placeholder-name' }, name),
  );
}

function thumbnail(photo) {
  if (!(photo.thumbnail_size > 0)) return placeholder(photo.name);
  const img = h('img', {
    class: 'thumb',
    src: `/thumbnail/${encodeURIComponent(photo.id)}?v=${photo.thumbnail_size}`,
    alt: photo.name,
    loading: 'lazy',
    decoding: 'async',
  });
  img.addEventListener('error', () => img.replaceWith(placeholder(photo.name)), { once: true });
  return img;
}

/** What a grid cell shows: a cell is rebuilt only when this changes. */
function cellSignature(photo) {
  const tags = (photo.tags || []).map((t) => t.name).join(',');
  const ratings = (photo.ratings || []).map((r) => r.value).join(',');
  return `${photo.name}|${photo.thumbnail_size}|${photo.pending}|${tags}|${ratings}`;
}

function photoCell(photo) {
  const avg = averageRating(photo.ratings);
  return h(
    'a',
    {
      class: photo.pending ? 'photo pending' : 'photo',
      href: `#/photo/${encodeURIComponent(photo.id)}`,
      title: photo.name,
      dataset: { id: photo.id, signature: cellSignature(photo) },
    },
    h('div', { class: 'frame' }, thumbnail(photo), photo.pending ? h('span', { class: 'badge' }, 'Arriving…') : null),
    h(
      'div',
      { class: 'caption' },
      h('span', { class: 'name' }, photo.name),
      avg === null ? null : h('span', { class: 'mini-stars', title: `rated ${avg.toFixed(1)}` }, stars(avg)),
    ),
  );
}

function filterSelect(id, label, allLabel, options, selected) {
  const select = h(
    'select',
    { id, name: id },
    h('option', { value: '' }, allLabel),
    options.map((o) => h('option', { value: o.value, selected: o.value === selected }, o.label)),
  );
  select.addEventListener('change', () => {
    const filters = { ...state.route.filters };
    const key = id.replace('filter-', '');
    if (select.value) filters[key] = select.value;
    else delete filters[key];
    const query = new URLSearchParams(filters).toString();
    location.hash = query ? `#/?${query}` : '#/';
  });
  return h('label', { class: 'filter' }, h('span', null, label), select);
}

async function loadFilters(grid, seq) {
  const [shares, tags, devices] = await Promise.all([api('share.list'), api('tag.list'), api('device.list')]);
  if (grid !== state.grid) return;
  const f = grid.filters;
  const shareOptions = [{ value: 'default', label: 'Not shared' }].concat(
    shares.map((s) => ({ value: s.id, label: s.title || s.id.slice(0, 8) })),
  );
  const tagNames = [...new Set(tags.map((t) => t.name))].sort((a, b) => a.localeCompare(b));
  const deviceOptions = devices.map((d) => ({
    value: d.device_id || d.id,
    label: d.this_device ? `${d.name || shortId(d.id)} (this device)` : d.name || shortId(d.id),
  }));
  const render = () =>
    grid.filterBar.replaceChildren(
      filterSelect('filter-share', 'Share', 'All shares', shareOptions, f.share || ''),
      filterSelect('filter-tag', 'Tag', 'All tags', tagNames.map((n) => ({ value: n, label: n })), f.tag || ''),
      filterSelect('filter-device', 'Device', 'All devices', deviceOptions, f.device || ''),
      ...(Object.keys(f).length ? [h('a', { class: 'clear-filters', href: '#/' }, 'Clear filters')] : []),
    );
  if (state.route.name === 'grid' && current(seq)) keepingInputs(render);
  else render();
}

function updateGridStatus(grid) {
  grid.empty.hidden = grid.photos.length > 0 || !grid.done;
  grid.count.textContent = grid.done
    ? `${grid.photos.length} photo${grid.photos.length === 1 ? '' : 's'}`
    : `${grid.photos.length}+ photos`;
  grid.sentinel.classList.toggle('done', grid.done);
}

/** The args of one photo.list page after `afterId`. */
function pageArgs(grid, limit, afterId) {
  const args = { ...grid.filters, limit };
  if (afterId) args.after = afterId;
  return args;
}

async function loadMore(grid) {
  if (grid.loading || grid.done) return;
  grid.loading = true;
  try {
    const last = grid.photos[grid.photos.length - 1];
    const page = await api('photo.list', pageArgs(grid, PAGE_SIZE, last && last.id));
    if (grid !== state.grid) return;
    grid.photos.push(...page);
    grid.grid.append(...page.map(photoCell));
    grid.done = page.length < PAGE_SIZE;
    updateGridStatus(grid);
  } catch (error) {
    reportError(error);
    grid.done = true;
  } finally {
    grid.loading = false;
  }
  if (grid.nearEnd && !grid.done && grid === state.grid) loadMore(grid);
}

async function enterGrid(route, seq) {
  document.title = 'Photos · PeerShare';
  if (state.grid && state.grid.key === route.key) {
    viewRoot.replaceChildren(state.grid.root);
    window.scrollTo(0, state.grid.scrollY || 0);
    await refreshGrid(route, seq);
    return;
  }
  if (state.grid) state.grid.observer.disconnect();
  const grid = {
    key: route.key,
    filters: route.filters,
    photos: [],
    done: false,
    loading: false,
    nearEnd: false,
    scrollY: 0,
  };
  grid.filterBar = h('div', { class: 'filters', id: 'filters' });
  grid.count = h('span', { class: 'count', id: 'photo-count' });
  grid.grid = h('div', { class: 'grid', id: 'grid' });
  grid.empty = h(
    'p',
    { class: 'empty', id: 'grid-empty', hidden: true },
    Object.keys(route.filters).length ? 'No photo matches these filters.' : 'No photos yet. Add some with `peershare photo add FILE`.',
  );
  grid.sentinel = h('div', { class: 'grid-end', id: 'grid-end' }, 'Loading…');
  grid.root = h(
    'section',
    { class: 'grid-page' },
    h('div', { class: 'toolbar' }, grid.filterBar, grid.count),
    grid.grid,
    grid.empty,
    grid.sentinel,
  );
  grid.observer = new IntersectionObserver(
    (entries) => {
      grid.nearEnd = entries.some((e) => e.isIntersecting);
      if (grid.nearEnd) loadMore(grid);
    },
    { rootMargin: '600px 0px' },
  );
  grid.observer.observe(grid.sentinel);
  state.grid = grid;
  viewRoot.replaceChildren(grid.root);
  window.scrollTo(0, 0);
  await Promise.all([loadFilters(grid, seq), loadMore(grid)]);
}

/** Re-fetches the photos the grid shows (as many as are loaded) and patches the cells that
 *  changed, so that the scroll position and loaded thumbnails stay. */
async function refreshGrid(route, seq) {
  const grid = state.grid;
  if (!grid) return;
  const want = Math.max(PAGE_SIZE, grid.photos.length);
  const photos = [];
  let done = false;
  while (photos.length < want) {
    const limit = Math.min(1000, want - photos.length);
    const last = photos[photos.length - 1];
    const page = await api('photo.list', pageArgs(grid, limit, last && last.id));
    photos.push(...page);
    if (page.length < limit) {
      done = true;
      break;
    }
  }
  if (!current(seq) || grid !== state.grid) return;
  const cells = new Map([...grid.grid.children].map((cell) => [cell.dataset.id, cell]));
  const next = photos.map((photo) => {
    const old = cells.get(photo.id);
    return old && old.dataset.signature === cellSignature(photo) ? old : photoCell(photo);
  });
  grid.grid.replaceChildren(...next);
  grid.photos = photos;
  grid.done = done;
  updateGridStatus(grid);
  await loadFilters(grid, seq);
  if (grid.nearEnd && !grid.done) loadMore(grid);
}

// ---- Photo page ---------------------------------------------------------------------------

function photoStage(photo) {
  const data = `/data/${encodeURIComponent(photo.id)}`;
  if (photo.pending) {
    return h(
      'div',
      { class: 'stage', dataset: { key: `${photo.id}|pending` } },
      placeholder(photo.name, true),
      h('p', { class: 'stage-note' }, 'This photo is still arriving from a peer.'),
    );
  }
  const img = h('img', { id: 'photo-image', class: 'full', src: data, alt: photo.name });
  const stage = h(
    'div',
    { class: 'stage', dataset: { key: `${photo.id}|${photo.sha256}` } },
    h('a', { href: data, target: '_blank', rel: 'noopener', title: 'Open the full-size file' }, img),
  );
  img.addEventListener(
    'error',
    () => {
      stage.replaceChildren(
        placeholder(photo.name, true),
        h('p', { class: 'stage-note' }, 'No preview for this file. ', h('a', { href: data, download: photo.name }, 'Download it')),
      );
    },
    { once: true },
  );
  return stage;
}

function tagSection(photo) {
  const tags = h(
    'ul',
    { class: 'tags', id: 'tags' },
    (photo.tags || []).map((tag) =>
      h(
        'li',
        { class: 'tag', dataset: { name: tag.name, id: tag.id } },
        h('a', { class: 'tag-name', href: `#/?tag=${encodeURIComponent(tag.name)}` }, tag.name),
        h('button', {
          class: 'tag-remove',
          type: 'button',
          title: `Remove the tag ${tag.name}`,
          'aria-label': `Remove the tag ${tag.name}`,
          onclick: (event) => act(event.currentTarget, () => api('tag.remove', { photo: photo.id, tag: tag.id })),
        }, '×'),
      ),
    ),
  );
  const input = h('input', {
    id: 'tag-input',
    type: 'text',
    placeholder: 'Add a tag',
    autocomplete: 'off',
    maxlength: 200,
    'aria-label': 'New tag',
  });
  const button = h('button', { id: 'tag-add', type: 'submit', class: 'button' }, 'Add');
  const form = h('form', { class: 'inline-form', id: 'tag-form' }, input, button);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    act(button, async () => {
      await api('tag.add', { photo: photo.id, name });
      input.value = '';
    });
  });
  return h(
    'section',
    { class: 'panel' },
    h('h2', null, 'Tags'),
    photo.tags && photo.tags.length ? tags : [tags, h('p', { class: 'muted' }, 'No tags yet.')],
    form,
  );
}

function ratingSection(photo, ratings) {
  const avg = averageRating(ratings);
  const lit = avg === null ? 0 : Math.round(avg);
  const buttons = [5, 4, 3, 2, 1].map((value) =>
    h('button', {
      class: value <= lit ? 'rate-button lit' : 'rate-button',
      type: 'button',
      title: `Rate ${value} of 5`,
      'aria-label': `Rate ${value} of 5`,
      dataset: { value },
      onclick: (event) => act(event.currentTarget, () => api('rate', { photo: photo.id, value })),
    }, '★'),
  );
  const list = h(
    'ul',
    { class: 'ratings', id: 'ratings' },
    ratings.map((rating) =>
      h(
        'li',
        { class: 'rating', dataset: { value: rating.value, id: rating.id } },
        h('span', { class: 'rating-stars', title: `${rating.value} of 5` }, stars(rating.value)),
        h('span', { class: 'rating-by' }, rating.rater_person_name || rating.rater_name || shortId(rating.rater_id)),
        h('button', {
          class: 'rating-delete',
          type: 'button',
          title: 'Delete this rating',
          'aria-label': 'Delete this rating',
          onclick: (event) => act(event.currentTarget, () => api('rating.delete', { rating: rating.id })),
        }, '×'),
      ),
    ),
  );
  return h(
    'section',
    { class: 'panel' },
    h(
      'h2',
      null,
      'Rating',
      avg === null ? null : h('span', { class: 'average', id: 'rating-average' }, `${avg.toFixed(1)} from ${ratings.length}`),
    ),
    h('div', { class: 'stars', role: 'group', 'aria-label': 'Rate this photo' }, buttons),
    ratings.length ? list : [list, h('p', { class: 'muted' }, 'Not rated yet.')],
  );
}

function shareResult(url) {
  const input = h('input', { id: 'share-url', type: 'text', readonly: true, value: url, 'aria-label': 'Share URL' });
  input.addEventListener('focus', () => input.select());
  return h(
    'div',
    { class: 'share-result', id: 'share-result' },
    h(
      'div',
      { class: 'inline-form' },
      input,
      h('button', { id: 'share-copy', type: 'button', class: 'button', onclick: () => copyText(url, input) }, 'Copy'),
    ),
    h('img', { id: 'qr', class: 'qr', src: `/qr.svg?text=${encodeURIComponent(url)}`, alt: 'QR code of the share URL', width: 176, height: 176 }),
    h('p', { class: 'muted' }, 'Anyone with this URL can ask to join: send it only to the people you share with.'),
  );
}

function shareForm(photo) {
  const title = h('input', { id: 'share-title', type: 'text', value: photo.name, maxlength: 200, 'aria-label': 'Title' });
  const publicSelect = h(
    'select',
    { id: 'share-public', 'aria-label': 'Who may join with the URL' },
    h('option', { value: 'none' }, 'Only people I invite'),
    h('option', { value: 'read-only' }, 'Anyone with the URL: view'),
    h('option', { value: 'read-write' }, 'Anyone with the URL: view and edit'),
  );
  const submit = h('button', { id: 'share-submit', type: 'submit', class: 'button primary' }, 'Create share');
  const form = h(
    'form',
    { class: 'share-form', id: 'share-form' },
    h('label', null, h('span', null, 'Title'), title),
    h('label', null, h('span', null, 'Who may join'), publicSelect),
    h('div', { class: 'form-actions' }, submit, h('button', {
      type: 'button',
      class: 'button subtle',
      onclick: () => {
        state.openShareForm = null;
        refresh();
      },
    }, 'Cancel')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    act(submit, async () => {
      const result = await api('share.create', { photo: photo.id, title: title.value.trim() || photo.name, public: publicSelect.value });
      state.openShareForm = null;
      state.lastShare = { photo: photo.id, share: result.id, url: result.url };
      showMessage(`Shared “${title.value.trim() || photo.name}”. Send the URL to the people you share with.`, 'info');
    });
  });
  return form;
}

function shareSection(photo, share) {
  const parts = [h('h2', null, 'Sharing')];
  const justMade = state.lastShare && state.lastShare.photo === photo.id ? state.lastShare.url : null;
  if (photo.zone === 'default') {
    if (state.openShareForm === photo.id) parts.push(shareForm(photo));
    else {
      parts.push(
        h('p', { class: 'muted' }, 'Only your own devices have this photo.'),
        h('button', {
          id: 'share-create',
          type: 'button',
          class: 'button primary',
          onclick: () => {
            state.openShareForm = photo.id;
            refresh().then(() => {
              const input = document.getElementById('share-title');
              if (input) input.focus();
            });
          },
        }, 'Share…'),
      );
    }
  } else {
    const title = share ? share.title : photo.zone.slice(0, 8);
    parts.push(
      h('p', { id: 'photo-share' }, 'In the share ', h('a', { href: `#/?share=${encodeURIComponent(photo.zone)}` }, `“${title}”`),
        share ? ` (${share.role}, ${share.permission})` : ''),
    );
  }
  const url = justMade || (share && share.url);
  if (url) parts.push(shareResult(url));
  return h('section', { class: 'panel' }, parts);
}

function showPhotoGone() {
  document.title = 'Photo gone · PeerShare';
  viewRoot.replaceChildren(
    h(
      'section',
      { class: 'card empty', id: 'photo-gone' },
      h('h1', null, 'This photo is not here'),
      h('p', null, 'It was deleted, or the share it was in ended for you.'),
      h('a', { href: state.lastGridHash }, '← All photos'),
    ),
  );
}

async function loadPhoto(route, seq) {
  let photo;
  let ratings;
  try {
    [photo, ratings] = await Promise.all([
      api('photo.show', { photo: route.id }),
      api('rating.list', { photo: route.id }),
    ]);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'not_found') throw error;
    if (current(seq)) showPhotoGone();
    return;
  }
  let share = null;
  if (photo.zone !== 'default') {
    share = await api('share.show', { share: photo.zone }).catch(() => null);
  }
  if (!current(seq)) return;
  document.title = `${photo.name} · PeerShare`;
  const old = viewRoot.querySelector('.stage');
  const key = photo.pending ? `${photo.id}|pending` : `${photo.id}|${photo.sha256}`;
  const stage = old && old.dataset.key === key ? old : photoStage(photo);
  const where = photo.zone === 'default' ? 'Your library' : share ? `Share “${share.title}”` : 'A share';
  const side = h(
    'aside',
    { class: 'side' },
    h('a', { class: 'back', href: state.lastGridHash }, '← All photos'),
    h('h1', { id: 'photo-name', class: 'photo-title' }, photo.name),
    h(
      'dl',
      { class: 'meta' },
      h('dt', null, 'Size'), h('dd', { id: 'photo-size' }, formatSize(photo.size)),
      h('dt', null, 'Added'), h('dd', { id: 'photo-date' }, formatDate(photo.created_at)),
      h('dt', null, 'Where'), h('dd', null, where),
      photo.pending ? [h('dt', null, 'Status'), h('dd', { class: 'pending-note' }, 'Arriving from a peer')] : null,
    ),
    tagSection(photo),
    ratingSection(photo, ratings),
    shareSection(photo, share),
  );
  keepingInputs(() => viewRoot.replaceChildren(h('section', { class: 'photo-page', dataset: { id: photo.id } }, stage, side)));
}

// ---- Shares ---------------------------------------------------------------------------------

function badge(text, kind) {
  return h('span', { class: `pill ${kind || ''}`.trim() }, text);
}

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

async function loadShares(route, seq) {
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

// ---- Devices and peers ------------------------------------------------------------------

function connection(entry) {
  if (entry.paused) return badge('paused', 'warn');
  return entry.connected ? badge('connected', 'ok') : badge('not connected', '');
}

async function loadDevices(route, seq) {
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

// ---- Live updates ---------------------------------------------------------------------------

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

document.getElementById('message-close').addEventListener('click', clearMessage);
window.addEventListener('hashchange', navigate);
navigate();
followEvents();
