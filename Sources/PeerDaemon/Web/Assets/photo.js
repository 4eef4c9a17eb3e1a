// A photo's page (#/photo/ID): the full image, tags, ratings and sharing.

import {
  act, api, ApiError, averageRating, copyText, current, formatDate, formatSize, h, keepingInputs, placeholder,
  refresh, shortId, showMessage, stars, state, viewRoot,
} from './core.js';

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
    h('img', { id: 'qr', class: 'qr', src: `/qr.svg?text=${encodeURIComponent(url)}`, alt: 'QR code of the share URL', width: 132, height: 132 }),
    h(
      'div',
      { class: 'share-url-box' },
      input,
      h('button', { id: 'share-copy', type: 'button', class: 'button', onclick: () => copyText(url, input) }, 'Copy URL'),
      h('p', { class: 'muted small' }, 'Anyone with this URL can ask to join: send it only to the people you share with.'),
    ),
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

export async function loadPhoto(route, seq) {
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
