/** The review page: the policy document marked by the policies that cite it, each policy's spec, code, tests and decisions, and approval. */
import { highlightTypeScript } from './highlight.js';

const main = document.getElementById('main');
let overview;
/** Whether a view change should move the focus to its heading: not on the first load, only when the reader moves. */
let moveFocus = false;

/** Makes an element; children are nodes or text (never parsed as HTML). */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...nodes(children));
  return element;
}

function focusTitle() {
  if (moveFocus) main.querySelector('.view-title').focus();
}

/** Replaces what the main area shows. */
function show(...children) {
  main.replaceChildren(...nodes(children));
}

/** Flattens nested lists of children, leaving out the missing ones. */
function nodes(children) {
  return children.flat(Number.POSITIVE_INFINITY).filter((child) => child !== undefined && child !== null);
}

async function api(path, init) {
  const response = await fetch(path, init);
  return { status: response.status, body: await response.json() };
}

const policyHref = (id) => `#policy/${encodeURIComponent(id)}`;
const policyById = (id) => overview.policies.find((policy) => policy.id === id);
const badge = (state) => h('span', { class: `badge state-${state.kind}` }, state.label);

function policyChip(id) {
  const policy = policyById(id);
  const kind = policy?.state.kind ?? 'archived';
  const label = policy === undefined ? id : `${policy.name} (${policy.state.label})`;
  return h('a', { class: `chip state-${kind}`, href: policyHref(id), title: label, 'aria-label': label }, id);
}

function percent(part, whole) {
  return whole === 0 ? '100%' : `${Math.round((100 * part) / whole)}%`;
}

function renderStatus() {
  const status = document.getElementById('status');
  const { review, reviewed, changedSinceReview } = overview;
  const lines = [];
  if (reviewed && review !== null) {
    lines.push(
      h(
        'p',
        { id: 'review-state', 'data-state': 'reviewed' },
        h('strong', {}, 'Reviewed'),
        ` by ${review.by} on ${new Date(review.at).toLocaleString()}, covering ${Object.keys(review.hashes).length} files and policy states.`,
      ),
    );
  } else if (reviewed) {
    lines.push(
      h(
        'p',
        { id: 'review-state', 'data-state': 'reviewed' },
        h('strong', {}, 'Reviewed'),
        ' (marked in the manifest, with no approval record).',
      ),
    );
  } else if (review !== null && changedSinceReview.length > 0) {
    const changes = changedSinceReview.map((change) => `${change.path} (${change.change})`).join(', ');
    lines.push(
      h(
        'p',
        { id: 'review-state', 'data-state': 'void' },
        h('strong', {}, 'Not reviewed:'),
        ` the approval by ${review.by} no longer holds; changed since: ${changes}.`,
      ),
    );
  } else {
    lines.push(h('p', { id: 'review-state', 'data-state': 'unreviewed' }, h('strong', {}, 'Not reviewed.')));
  }
  const notEnforced = overview.policies.filter((policy) => policy.state.kind === 'not_enforced');
  const message = h('p', { id: 'approve-message', role: 'status' });
  const name = h('input', { type: 'text', id: 'reviewer', name: 'reviewer', autocomplete: 'name', required: true });
  const accept = h('input', { type: 'checkbox', id: 'accept-not-enforced' });
  const form = h(
    'form',
    { class: 'approve', onsubmit: (event) => approve(event, name, accept, message) },
    h('label', { for: 'reviewer' }, 'Your name'),
    name,
    notEnforced.length > 0
      ? h(
          'label',
          {},
          accept,
          ` approve although ${notEnforced.length} ${notEnforced.length === 1 ? 'policy is' : 'policies are'} not enforced`,
        )
      : undefined,
    h('button', { type: 'submit', id: 'approve' }, 'Approve pack'),
  );
  status.replaceChildren(...nodes([lines, form, message]));
}

async function approve(event, name, accept, message) {
  event.preventDefault();
  message.className = '';
  message.textContent = 'Approving…';
  const { status, body } = await api('/api/approve', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ by: name.value, acceptNotEnforced: accept.checked, fingerprint: overview.fingerprint }),
  });
  if (status === 409 && body.changedSinceSeen === true) {
    message.className = 'message-error';
    message.textContent =
      'Not approved: the pack changed since this page was loaded. Reload it and review the changes.';
    return;
  }
  if (status === 409) {
    message.className = 'message-error';
    message.textContent = `Not approved: ${body.notEnforced.join(', ')} ${body.notEnforced.length === 1 ? 'is' : 'are'} not enforced. Tick the box to approve anyway.`;
    return;
  }
  if (status !== 200) {
    message.className = 'message-error';
    message.textContent = `Not approved: ${body.error}`;
    return;
  }
  await loadOverview();
  document.getElementById('approve-message').textContent = `Approved by ${body.review.by}.`;
}

function renderNav(current) {
  const nav = document.getElementById('policy-nav');
  const link = (href, text, active) => h('a', { href, 'aria-current': active ? 'page' : undefined }, text);
  const groups = new Map();
  for (const policy of overview.policies) {
    const group = policy.tool ?? 'general policies';
    groups.set(group, [...(groups.get(group) ?? []), policy]);
  }
  nav.replaceChildren(
    ...nodes([
      link('#document', 'Policy document', current === undefined),
      ...[...groups].map(([group, policies]) => [
        h('h2', {}, group),
        h(
          'ul',
          {},
          policies.map((policy) =>
            h('li', {}, link(policyHref(policy.id), policy.id, policy.id === current), ' ', badge(policy.state)),
          ),
        ),
      ]),
    ]),
  );
}

function sentenceNodes(block) {
  return block.sentences.map((sentence) => {
    const cited = sentence.citedBy.length > 0;
    const uncovered = !cited && block.kind !== 'heading';
    return [
      h(
        'span',
        {
          class: `sentence${uncovered ? ' uncovered' : ''}`,
          id: `s-${sentence.index}`,
          'data-cited-by': sentence.citedBy.join(' '),
          tabindex: '-1',
        },
        sentence.text,
      ),
      cited ? h('span', { class: 'chips' }, ' ', sentence.citedBy.map(policyChip)) : undefined,
      uncovered ? [' ', h('span', { class: 'badge uncovered-label' }, 'not cited')] : undefined,
      ' ',
    ];
  });
}

function renderBlocks(blocks) {
  const root = h('div', { class: 'document' });
  const lists = [];
  for (const block of blocks) {
    if (block.kind !== 'item') {
      lists.length = 0;
      const tag = block.kind === 'heading' ? `h${Math.min(block.level + 2, 6)}` : 'p';
      root.append(h(tag, {}, sentenceNodes(block)));
      continue;
    }
    while (lists.length > block.level + 1) lists.pop();
    while (lists.length < block.level + 1) {
      const list = h('ul');
      const parent = lists.at(-1)?.lastElementChild ?? root;
      parent.append(list);
      lists.push(list);
    }
    lists.at(-1).append(h('li', {}, sentenceNodes(block)));
  }
  return root;
}

function renderDocument(sentence) {
  const { coverage, decisions } = overview;
  const archived = overview.policies.filter((policy) => policy.state.kind === 'archived');
  const general = overview.policies.filter((policy) => policy.state.kind === 'general');
  const notEnforced = overview.policies.filter((policy) => policy.state.kind === 'not_enforced');
  const reasonList = (policies) =>
    h(
      'ul',
      {},
      policies.map((policy) =>
        h('li', {}, policyChip(policy.id), ` ${policy.name}: `, policy.state.notes.map((note) => note.text).join('; ')),
      ),
    );
  show(
    h('h2', { tabindex: '-1', class: 'view-title' }, 'Policy document'),
    h(
      'p',
      { class: 'coverage', id: 'coverage' },
      h('strong', {}, `Coverage ${percent(coverage.cited, coverage.sentences)}: `),
      `${coverage.cited} of ${coverage.sentences} sentences are cited by a policy; ${coverage.citedByEnforced} by an enforced one.`,
    ),
    decisions === null
      ? undefined
      : h(
          'p',
          { id: 'decision-totals' },
          `Decisions from ${decisions.source}: ${decisions.calls} calls, ${decisions.denied} denied, ${decisions.asked} asked.`,
        ),
    h(
      'p',
      { class: 'legend' },
      'Each sentence is followed by the policies that cite it: ',
      h('span', { class: 'badge state-enforced' }, 'enforced'),
      h('span', { class: 'badge state-not_enforced' }, 'not enforced'),
      h('span', { class: 'badge state-archived' }, 'archived'),
      h('span', { class: 'badge state-general' }, 'general'),
      '; sentences no policy cites are marked ',
      h('span', { class: 'badge uncovered-label' }, 'not cited'),
      '. Headings are not counted.',
    ),
    renderBlocks(overview.document),
    notEnforced.length === 0
      ? undefined
      : h('section', { id: 'not-enforced' }, h('h3', {}, 'Not enforced policies'), reasonList(notEnforced)),
    h(
      'section',
      { id: 'archived' },
      h('h3', {}, 'Archived policies'),
      archived.length === 0 ? h('p', {}, 'None.') : reasonList(archived),
    ),
    h(
      'section',
      { id: 'general' },
      h('h3', {}, 'General policies: no tool call can decide them'),
      general.length === 0 ? h('p', {}, 'None.') : reasonList(general),
    ),
    overview.unmatched.length === 0
      ? undefined
      : h(
          'section',
          { id: 'unmatched' },
          h('h3', {}, 'References not found in the document'),
          h(
            'ul',
            {},
            overview.unmatched.map((item) => h('li', {}, policyChip(item.policy), ` "${item.reference}"`)),
          ),
        ),
  );
  const target = sentence === undefined ? undefined : document.getElementById(`s-${sentence}`);
  if (target !== null && target !== undefined) {
    target.scrollIntoView({ block: 'center' });
    target.focus();
    return;
  }
  focusTitle();
}

function codeBlock(source) {
  return h(
    'pre',
    {},
    h(
      'code',
      {},
      highlightTypeScript(source).map((token) =>
        token.kind === 'space' || token.kind === 'punctuation' || token.kind === 'name'
          ? token.text
          : h('span', { class: `tok-${token.kind}` }, token.text),
      ),
    ),
  );
}

function renderDecisions(policy) {
  const decisions = policy.decisions;
  if (decisions === null) {
    return h(
      'p',
      {},
      policy.tool === null
        ? 'A general policy decides no calls.'
        : 'No decisions shown: start the review with --replay <verdicts.jsonl>.',
    );
  }
  return h(
    'div',
    {},
    h(
      'p',
      { id: 'decision-counts' },
      `From ${decisions.source}: ${decisions.calls} calls of ${policy.tool} (${decisions.allowed} allowed, ${decisions.denied} denied, ${decisions.asked} asked); this policy did not allow ${decisions.violations} of them.`,
    ),
    decisions.recent.length === 0 ? undefined : h('h4', {}, 'Latest calls it did not allow'),
    decisions.recent.map((shown) =>
      h(
        'div',
        { class: 'decision' },
        h('h4', {}, `${shown.origin}${shown.time === undefined ? '' : `, ${shown.time}`}: ${shown.decision}`),
        h('p', {}, shown.message),
        h(
          'pre',
          { 'aria-label': 'the call' },
          shown.call.arguments === undefined
            ? `${shown.call.name} (arguments not recorded)`
            : `${shown.call.name} ${JSON.stringify(shown.call.arguments, null, 2)}`,
        ),
        h('details', {}, h('summary', {}, 'Feedback the agent got'), h('pre', { class: 'wrap' }, shown.feedback)),
      ),
    ),
  );
}

async function renderPolicy(id) {
  show(h('h2', { tabindex: '-1', class: 'view-title' }, id), h('p', {}, 'Running its test cases…'));
  focusTitle();
  const { status, body } = await api(`/api/policies/${encodeURIComponent(id)}`);
  if (status !== 200) {
    show(h('h2', { tabindex: '-1', class: 'view-title' }, 'Policy not found'), h('p', {}, body.error));
    focusTitle();
    return;
  }
  const policy = body;
  const cited = overview.document.flatMap((block) => block.sentences).filter((s) => s.citedBy.includes(id));
  const passed = policy.tests.filter((test) => test.outcome === 'pass').length;
  const examples = (title, items) =>
    h(
      'div',
      {},
      h('h4', {}, title),
      items.length === 0
        ? h('p', {}, 'None.')
        : h(
            'ul',
            {},
            items.map((item) => h('li', {}, item)),
          ),
    );
  show(
    h('p', {}, h('a', { href: '#document' }, '← Policy document')),
    h('h2', { tabindex: '-1', class: 'view-title', id: 'policy-title' }, policy.name),
    h(
      'p',
      {},
      h('code', {}, policy.id),
      policy.tool === null ? ' (general policy)' : [' on tool ', h('code', {}, policy.tool)],
    ),
    h(
      'section',
      { id: 'state', 'data-state': policy.state.kind },
      h('h3', {}, 'State'),
      badge(policy.state),
      h(
        'dl',
        { class: 'notes' },
        policy.state.notes.map((note) => [h('dt', {}, note.label), h('dd', {}, note.text)]),
      ),
    ),
    h(
      'section',
      { id: 'spec' },
      h('h3', {}, 'Spec'),
      h('p', {}, policy.description),
      h('h4', {}, 'References'),
      policy.references.map((reference) => h('blockquote', {}, reference)),
      cited.length === 0
        ? undefined
        : h(
            'p',
            {},
            'In the document: ',
            cited.map((sentence) => [
              h('a', { href: `#document/${sentence.index}` }, `sentence ${sentence.index + 1}`),
              ' ',
            ]),
          ),
      examples('Compliance examples', policy.complianceExamples),
      examples('Violation examples', policy.violationExamples),
      policy.remedy === null ? undefined : [h('h4', {}, 'Remedy (told to the agent)'), h('p', {}, policy.remedy)],
    ),
    h(
      'section',
      { id: 'code' },
      h('h3', {}, 'Guard code'),
      policy.code === null
        ? h('p', {}, 'No guard code.')
        : [h('p', {}, h('code', {}, policy.code.path)), codeBlock(policy.code.source)],
    ),
    h(
      'section',
      { id: 'tests' },
      h('h3', {}, 'Test cases, run now in the sandbox'),
      policy.tests.length === 0
        ? h('p', {}, 'No test cases.')
        : [
            h('p', { id: 'test-summary' }, `${passed} of ${policy.tests.length} pass.`),
            h(
              'table',
              {},
              h(
                'thead',
                {},
                h('tr', {}, h('th', {}, 'Kind'), h('th', {}, 'Example'), h('th', {}, 'Result'), h('th', {}, 'Detail')),
              ),
              h(
                'tbody',
                {},
                policy.tests.map((test) =>
                  h(
                    'tr',
                    {},
                    h('td', {}, test.kind),
                    h('td', {}, test.example),
                    h('td', {}, h('span', { class: `badge outcome-${test.outcome}` }, test.outcome)),
                    h('td', {}, test.detail),
                  ),
                ),
              ),
            ),
          ],
    ),
    h('section', { id: 'decisions' }, h('h3', {}, 'Decisions'), renderDecisions(policy)),
  );
  focusTitle();
}

async function route() {
  const hash = decodeURIComponent(window.location.hash.slice(1));
  const policy = hash.startsWith('policy/') ? hash.slice('policy/'.length) : undefined;
  renderNav(policy);
  if (policy !== undefined) {
    document.title = `${policy} · guard pack review`;
    await renderPolicy(policy);
    return;
  }
  document.title = `${overview.domain} · guard pack review`;
  const sentence = /^document\/(\d+)$/.exec(hash)?.[1];
  renderDocument(sentence);
}

async function loadOverview() {
  const { status, body } = await api('/api/pack');
  if (status !== 200) {
    show(h('h2', {}, 'The pack cannot be read'), h('pre', {}, body.error));
    return false;
  }
  overview = body;
  document.getElementById('pack-title').textContent = `Review: ${overview.domain}`;
  document.getElementById('pack-description').textContent = overview.description;
  renderStatus();
  return true;
}

window.addEventListener('hashchange', () => {
  moveFocus = true;
  route();
});
if (await loadOverview()) await route();
document.body.dataset.ready = 'true';
performance.mark('review-ready');
