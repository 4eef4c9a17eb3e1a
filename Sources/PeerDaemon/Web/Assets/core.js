// What every page of the gallery uses: building elements, formatting, the API, the message
// bar and the page's state.
//
// Every request is a POST /api/COMMAND with the control protocol's arguments and the session's
// CSRF token; every element is built with createElement and text nodes (names and tags come
// from other people's devices: never HTML).

const csrfToken = document.querySelector('meta[name="csrf-token"]').content;
export const viewRoot = document.getElementById('view');

export const state = {
  route: null,
  seq: 0, // bumped by every navigation and refresh: older answers are dropped
  grid: null, // the grid of the last #/ visited, kept to come back to it where one left it
  lastGridHash: '#/',
  openShareForm: null, // the photo whose "Share…" form is open
  lastShare: null, // {photo, url}: the share just made from the page
  refreshTimer: null,
};

let refresher = async () => {};

/** Sets what `refresh` runs (the router's: fetch the current view again). */
export function setRefresher(fn) {
  refresher = fn;
}

/** Fetches the current view again at once. */
export function refresh() {
  return refresher();
}

/** True while no newer navigation or refresh has started since `seq` was taken. */
export function current(seq) {
  return seq === state.seq;
}


/** An element with attributes (`class`, `dataset`, `onEVENT` handlers) and children. */
export function h(tag, props, ...children) {
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
export function keepingInputs(fn) {
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

export function formatSize(bytes) {
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

export function formatDate(iso) {
  if (!iso) return 'never';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** The first group of a peer or person ID (`IACODSE-PA4…`): enough to tell peers apart. */
export function shortId(id) {
  return id ? id.split('-')[0] : '?';
}

export function stars(value) {
  const n = Math.max(0, Math.min(5, Math.round(value)));
  return '★'.repeat(n) + '☆'.repeat(5 - n);
}

export function averageRating(ratings) {
  if (!ratings || ratings.length === 0) return null;
  return ratings.reduce((sum, r) => sum + r.value, 0) / ratings.length;
}

export function extensionOf(name) {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1) : '';
  return ext && ext.length <= 5 ? ext.toUpperCase() : 'FILE';
}

/** Who a person/device is, in words: display names when known, else the ID's first group. */
export function who(entry) {
  const person = entry.person_name;
  const device = entry.device_name;
  if (person && device) return `${person} (${device})`;
  return person || device || shortId(entry.peer_id || entry.id);
}

export function badge(text, kind) {
  return h('span', { class: `pill ${kind || ''}`.trim() }, text);
}


export function placeholder(name, big = false) {
  return h(
    'div',
    { class: big ? 'placeholder placeholder-big' : 'placeholder' },
    h('span', { class: 'placeholder-ext' }, extensionOf(name)),
    h('span', { class: 'placeholder-name' }, name),
  );
}


export class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** Runs one control command through POST /api/COMMAND; its result, or an ApiError. */
export async function api(command, args = {}) {
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

export function showMessage(text, kind = 'error', code = '') {
  const box = document.getElementById('message');
  box.className = `message ${kind}`;
  box.dataset.code = code;
  document.getElementById('message-text').textContent = text;
  box.hidden = false;
}

export function clearMessage() {
  const box = document.getElementById('message');
  box.hidden = true;
  box.dataset.code = '';
}

export function reportError(error) {
  if (error instanceof ApiError) showMessage(error.message, 'error', error.code);
  else showMessage(String(error && error.message ? error.message : error), 'error', 'script');
}

/** Runs a user's action with its button disabled; shows a refusal; then refreshes the view. */
export async function act(button, fn) {
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

export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (_) {
    input.select();
    document.execCommand('copy');
  }
  showMessage('Copied the share URL. Treat it like a password: anyone holding it may ask to join.', 'info');
}
