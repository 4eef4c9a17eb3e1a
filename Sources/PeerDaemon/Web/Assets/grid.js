// The grid (#/): thumbnails 100 at a time as one scrolls, filtered by share, tag or device.

import { api, averageRating, current, h, keepingInputs, placeholder, reportError, shortId, stars, state, viewRoot } from './core.js';

const PAGE_SIZE = 100;
// How close to the end of the grid (in pixels below the window) the next page is fetched.
const NEAR_END_PX = 600;

/** Whether the end of the grid is in the window or close below it, as laid out now (the
 *  observer's last report may predate the page just added). */
function nearEnd(grid) {
  return grid.root.isConnected && grid.sentinel.getBoundingClientRect().top < window.innerHeight + NEAR_END_PX;
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
  // A live update that changes no option leaves the selects alone: one being used is not
  // swapped out under the pointer.
  const signature = JSON.stringify([shareOptions, tagNames, deviceOptions, f]);
  if (grid.filterSignature === signature) return;
  grid.filterSignature = signature;
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
    // Unless a refresh replaced the list meanwhile (this page may hold photos it has: the
    // check below asks again after the list's new end).
    if (grid === state.grid && grid.photos[grid.photos.length - 1] === last) {
      grid.photos.push(...page);
      grid.grid.append(...page.map(photoCell));
      grid.done = page.length < PAGE_SIZE;
      updateGridStatus(grid);
    }
  } catch (error) {
    reportError(error);
    grid.done = true;
  } finally {
    grid.loading = false;
  }
  if (nearEnd(grid) && !grid.done && grid === state.grid) loadMore(grid);
}

export async function enterGrid(route, seq) {
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
      if (entries.some((e) => e.isIntersecting)) loadMore(grid);
    },
    { rootMargin: `${NEAR_END_PX}px 0px` },
  );
  grid.observer.observe(grid.sentinel);
  state.grid = grid;
  viewRoot.replaceChildren(grid.root);
  window.scrollTo(0, 0);
  await Promise.all([loadFilters(grid, seq), loadMore(grid)]);
}

/** Re-fetches the photos the grid shows (as many as are loaded) and patches the cells that
 *  changed, so that the scroll position and loaded thumbnails stay. */
export async function refreshGrid(route, seq) {
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
  // The grid grew while this ran (the next page came in as one scrolled): ask again for all
  // of it, rather than shrink it back.
  if (grid.photos.length > want) return refreshGrid(route, seq);
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
  if (nearEnd(grid) && !grid.done) loadMore(grid);
}
