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

/** A link to a policy; from a sentence, the policy view then marks the references that cite that sentence. */
function policyChip(id, sentence) {
  const policy = policyById(id);
  const kind = policy?.state.kind ?? 'archived';
  const label = policy === undefined ? id : `${policy.name} (${policy.state.label})`;
  const href = sentence === undefined ? policyHref(id) : `${policyHref(id)}/sentence/${sentence}`;
  return h('a', { class: `chip state-${kind}`, href, title: label, 'aria-label': label }, id);
}

/** Marks one element as the target a link led to, scrolls it into view, and gives it the focus. */
function markTarget(elements) {
  for (const old of document.querySelectorAll('.target')) old.classList.remove('target');
  for (const element of elements) element.classList.add('target');
  const first = elements[0];
  if (first === undefined) return false;
  first.scrollIntoView({ block: 'center' });
  first.focus();
  return true;
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

/** The policy list's search and filters; kept while the reader moves between views. */
const filter = { text: '', tool: '', state: '', approval: '', refused: false };

/** Whether a policy shows in the list under the current search and filters. */
function matches(policy) {
  const words = filter.text
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  const haystack = [policy.id, policy.name, policy.description, ...policy.references].join(' ').toLowerCase();
  if (!words.every((word) => haystack.includes(word))) return false;
  if (filter.tool !== '' && (policy.tool ?? '') !== filter.tool) return false;
  if (filter.state !== '' && policy.state.kind !== filter.state) return false;
  if (filter.approval !== '' && policy.approved !== (filter.approval === 'approved')) return false;
  return !filter.refused || (policy.refusals ?? 0) > 0;
}

/** Shows the policies that match the filters, and how many. */
function applyFilter() {
  let shown = 0;
  for (const item of document.querySelectorAll('#policy-list li')) {
    const visible = matches(policyById(item.dataset.policy));
    item.hidden = !visible;
    if (visible) shown++;
  }
  for (const group of document.querySelectorAll('#policy-list .group')) {
    group.hidden = group.querySelector('li:not([hidden])') === null;
  }
  document.getElementById('filter-count').textContent = `${shown} of ${overview.policies.length} policies shown`;
}

function filterForm() {
  const select = (id, label, key, options) =>
    h(
      'div',
      { class: 'field' },
      h('label', { for: id }, label),
      h(
        'select',
        {
          id,
          onchange: (event) => {
            filter[key] = event.target.value;
            applyFilter();
          },
        },
        options.map(([value, text]) => h('option', { value, selected: filter[key] === value }, text)),
      ),
    );
  const tools = [...new Set(overview.policies.map((policy) => policy.tool).filter((tool) => tool !== null))];
  return h(
    'form',
    { role: 'search', class: 'filter', 'aria-label': 'Find policies', onsubmit: (event) => event.preventDefault() },
    h('label', { for: 'filter-text' }, 'Search policies'),
    h('input', {
      type: 'search',
      id: 'filter-text',
      value: filter.text,
      placeholder: 'id, name, description or reference',
      oninput: (event) => {
        filter.text = event.target.value;
        applyFilter();
      },
    }),
    select('filter-tool', 'Tool', 'tool', [['', 'any tool'], ...tools.map((tool) => [tool, tool])]),
    select('filter-state', 'State', 'state', [
      ['', 'any state'],
      ['enforced', 'enforced'],
      ['not_enforced', 'not enforced'],
      ['archived', 'archived'],
      ['general', 'general'],
    ]),
    select('filter-approval', 'Approval', 'approval', [
      ['', 'approved or not'],
      ['approved', 'approved'],
      ['unapproved', 'not approved'],
    ]),
    h(
      'label',
      { class: 'check' },
      h('input', {
        type: 'checkbox',
        id: 'filter-refused',
        checked: filter.refused,
        disabled: overview.decisions === null,
        onchange: (event) => {
          filter.refused = event.target.checked;
          applyFilter();
        },
      }),
      ' only policies that refused calls',
    ),
    h('p', { id: 'filter-count', role: 'status' }),
  );
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
      filterForm(),
      h(
        'div',
        { id: 'policy-list' },
        [...groups].map(([group, policies]) =>
          h(
            'div',
            { class: 'group' },
            h('h2', {}, group),
            h(
              'ul',
              {},
              policies.map((policy) =>
                h(
                  'li',
                  { 'data-policy': policy.id },
                  link(policyHref(policy.id), policy.id, policy.id === current),
                  ' ',
                  badge(policy.state),
                  policy.refusals > 0 ? [' ', h('span', { class: 'count' }, `${policy.refusals} refused`)] : undefined,
                ),
              ),
            ),
          ),
        ),
      ),
    ]),
  );
  applyFilter();
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
      cited
        ? h(
            'span',
            { class: 'chips' },
            ' ',
            sentence.citedBy.map((id) => policyChip(id, sentence.index)),
          )
        : undefined,
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
  const target = sentence === undefined ? null : document.getElementById(`s-${sentence}`);
  if (!markTarget(target === null ? [] : [target])) focusTitle();
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

const json = (value) => JSON.stringify(value, null, 2);

/** A module's code, highlighted only when its `details` is first opened, so long helpers cost nothing until read. */
function moduleDetails(module, open) {
  const lines = module.source.split('\n').length;
  const details = h(
    'details',
    { class: 'module', 'data-path': module.path, open },
    h('summary', {}, h('code', {}, module.path), ` (${lines} lines)`),
  );
  const fill = () => {
    if (details.open && details.querySelector('pre') === null) details.append(codeBlock(module.source));
  };
  details.addEventListener('toggle', fill);
  fill();
  return details;
}

/** A conversation, as OpenAI chat messages (test cases) or the runtime's messages (recorded decisions). */
function conversationList(messages) {
  if (messages.length === 0) return h('p', {}, 'No messages.');
  return h(
    'ol',
    { class: 'conversation' },
    messages.map((message) => {
      const text =
        message.text ?? (typeof message.content === 'string' ? message.content : json(message.content ?? ''));
      const calls = (message.toolCalls ?? message.tool_calls ?? []).map((call) =>
        call.function === undefined
          ? `${call.name}(${JSON.stringify(call.arguments)})`
          : `${call.function.name}(${call.function.arguments})`,
      );
      const role = message.role === 'tool' ? `tool ${message.name ?? message.tool_call_id ?? ''}`.trim() : message.role;
      const body = [
        text === '' ? undefined : h('span', { class: 'said' }, text),
        calls.map((call) => h('code', { class: 'call' }, call)),
      ];
      return h(
        'li',
        { class: `message role-${message.role}` },
        h('strong', {}, `${role}: `),
        message.role === 'system'
          ? h('details', {}, h('summary', {}, `instructions (${text.length} characters)`), body)
          : body,
      );
    }),
  );
}

/** The lookups a check made, each with the record it got back. */
function lookupList(lookups) {
  if (lookups.length === 0) return h('p', {}, 'No lookups.');
  return h(
    'ul',
    { class: 'lookups' },
    lookups.map((lookup) =>
      h(
        'li',
        {},
        h(
          'details',
          {},
          h(
            'summary',
            {},
            h('code', {}, `${lookup.tool}(${JSON.stringify(lookup.arguments)})`),
            lookup.error === undefined ? '' : ` failed: ${lookup.error}`,
          ),
          lookup.error === undefined ? h('pre', {}, json(lookup.result ?? null)) : undefined,
        ),
      ),
    ),
  );
}

function caseInput(input) {
  const clock = { case: 'set by the case', pack: "the pack's clock", now: 'the time the case runs' }[input.clock];
  return h(
    'dl',
    { class: 'input' },
    h('dt', {}, 'Arguments'),
    h('dd', {}, h('pre', { class: 'arguments' }, json(input.arguments))),
    h('dt', {}, `Conversation (${input.conversation.length} messages)`),
    h('dd', {}, conversationList(input.conversation)),
    h('dt', {}, `Lookups (${input.lookups.length})`),
    h('dd', {}, lookupList(input.lookups)),
    h('dt', {}, 'Clock'),
    h('dd', { class: 'clock' }, input.now === null ? clock : `${input.now} (${clock})`),
  );
}

function renderTests(tests) {
  if (tests.length === 0) return h('p', {}, 'No test cases.');
  const passed = tests.filter((test) => test.outcome === 'pass').length;
  return [
    h('p', { id: 'test-summary' }, `${passed} of ${tests.length} pass.`),
    tests.map((test, index) =>
      h(
        'article',
        { class: 'case', 'aria-labelledby': `case-${index}` },
        h(
          'h4',
          { id: `case-${index}` },
          h('span', { class: `badge outcome-${test.outcome}` }, test.outcome),
          ` ${test.kind}: ${test.example}`,
        ),
        h('p', { class: 'detail' }, test.detail),
        caseInput(test.input),
      ),
    ),
  ];
}

function decisionView(shown) {
  const heading = `${shown.origin}${shown.time === undefined ? '' : `, ${shown.time}`}: ${shown.decision}`;
  const outcome =
    shown.askOutcome === undefined
      ? undefined
      : `The person ${shown.askOutcome.answer === 'unavailable' ? 'could not be asked' : `answered: ${shown.askOutcome.answer}`}; the call ${shown.askOutcome.ran ? 'ran' : 'did not run'}.`;
  return h(
    'div',
    { class: 'decision' },
    h('h5', {}, heading),
    shown.message === null ? undefined : h('p', {}, shown.message),
    outcome === undefined ? undefined : h('p', { class: 'ask-outcome' }, outcome),
    h(
      'pre',
      { class: 'call', 'aria-label': 'the call' },
      shown.call.arguments === undefined
        ? `${shown.call.name} (arguments not recorded)`
        : `${shown.call.name} ${json(shown.call.arguments)}`,
    ),
    shown.now === undefined ? undefined : h('p', {}, `Clock: ${shown.now}`),
    shown.lookups === undefined
      ? h('p', {}, 'The source did not record the lookups.')
      : h(
          'details',
          { class: 'records' },
          h('summary', {}, `Records the lookups returned (${shown.lookups.length})`),
          lookupList(shown.lookups),
        ),
    shown.conversation !== undefined
      ? h(
          'details',
          { class: 'conversation-before' },
          h('summary', {}, `Conversation before the call (${shown.conversation.length} messages)`),
          conversationList(shown.conversation),
        )
      : h(
          'p',
          {},
          shown.conversationDigest === undefined
            ? 'The conversation is not shown: start the review with --trajectories <runs> beside --replay.'
            : `The log keeps the conversation's digest, not its messages: ${shown.conversationDigest.messages} messages, SHA-256 ${shown.conversationDigest.sha256.slice(0, 16)}…`,
        ),
    shown.feedback === null
      ? undefined
      : h('details', {}, h('summary', {}, 'Feedback the agent got'), h('pre', { class: 'wrap' }, shown.feedback)),
  );
}

function decisionSample(id, title, sample) {
  return h(
    'section',
    { id, class: 'sample' },
    h(
      'h4',
      {},
      `${title}: ${sample.total}`,
      sample.total > sample.shown.length ? `, ${sample.shown.length} shown, spread over the source` : '',
    ),
    sample.shown.map(decisionView),
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
        : 'No decisions shown: start the review with --replay <verdicts.jsonl> or --audit <log>.',
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
    decisionSample('refused', 'Calls it refused', decisions.refusedSample),
    decisionSample('allowed', 'Calls it let through', decisions.allowedSample),
  );
}

async function renderPolicy(id, sentence) {
  show(h('h2', { tabindex: '-1', class: 'view-title' }, id), h('p', {}, 'Running its test cases…'));
  focusTitle();
  const { status, body } = await api(`/api/policies/${encodeURIComponent(id)}`);
  if (status !== 200) {
    show(h('h2', { tabindex: '-1', class: 'view-title' }, 'Policy not found'), h('p', {}, body.error));
    focusTitle();
    return;
  }
  const policy = body;
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
      policy.citations.map((citation, index) =>
        h(
          'div',
          { class: 'reference', id: `ref-${index}`, tabindex: '-1', 'data-sentences': citation.sentences.join(' ') },
          h('blockquote', {}, citation.text),
          h(
            'p',
            {},
            citation.sentences.length === 0
              ? 'Not found in the document.'
              : [
                  'In the document: ',
                  citation.sentences.map((index) => [
                    h('a', { href: `#document/${index}` }, `sentence ${index + 1}`),
                    ' ',
                  ]),
                ],
          ),
        ),
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
        : [
            moduleDetails(policy.code, true),
            h('h4', {}, `Helper modules it imports (${policy.code.helpers.length})`),
            policy.code.helpers.length === 0
              ? h('p', {}, 'None.')
              : h(
                  'div',
                  { id: 'helpers' },
                  policy.code.helpers.map((helper) => moduleDetails(helper, false)),
                ),
          ],
    ),
    h('section', { id: 'tests' }, h('h3', {}, 'Test cases, run now in the sandbox'), renderTests(policy.tests)),
    h('section', { id: 'decisions' }, h('h3', {}, 'Decisions'), renderDecisions(policy)),
  );
  const citing =
    sentence === undefined
      ? []
      : [...main.querySelectorAll('.reference')].filter((element) =>
          element.dataset.sentences.split(' ').includes(sentence),
        );
  if (!markTarget(citing)) focusTitle();
}

async function route() {
  const hash = window.location.hash.slice(1);
  const target = /^policy\/([^/]+)(?:\/sentence\/(\d+))?$/.exec(hash);
  const policy = target === null ? undefined : decodeURIComponent(target[1]);
  renderNav(policy);
  if (policy !== undefined) {
    document.title = `${policy} · guard pack review`;
    await renderPolicy(policy, target[2]);
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
