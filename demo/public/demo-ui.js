// The demo's page logic, shared by both checkout pages (the script-tag page and the ES module page hand it
// their `Sdk` and the SDK's card helpers). It is what a merchant's checkout does: init, setup on load, a card
// form checked as the buyer types, tokenize, send the token and the sessionId to its own backend, show the
// outcome. It also shows what the service holds and the fraud analysis, which a real checkout would not.
// Its words are demo/messages.ts's, in the page's language (window.DemoMessages, from /messages.js): the SDK and
// the API answer with codes, and the page says them to the buyer.
(() => {
  const POLL_INTERVAL_MS = 500;
  const POLL_ATTEMPTS = 60;

  const byId = (id) => document.getElementById(id);
  const meta = (name) => document.querySelector(`meta[name="${name}"]`).content;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  /** The page's words for `key`, its `{name}` marks filled from `values`. */
  const t = (key, values = {}) =>
    (window.DemoMessages[key] ?? key).replace(/\{(\w+)\}/g, (mark, name) => values[name] ?? mark);
  /** What went wrong, in the buyer's words: the code's message (an unknown code is named in the fallback). */
  const explain = (error) => {
    const code = error?.code ?? 'ERROR';
    return window.DemoMessages[`error.${code}`] ?? t('error.fallback', { code });
  };

  /** `el('dd', { id: 'x' }, 'text', child)`: an element with properties and children. */
  function el(tag, properties = {}, ...children) {
    const element = Object.assign(document.createElement(tag), properties);
    element.append(...children);
    return element;
  }

  function setStatus(state, text) {
    const status = byId('status');
    status.dataset.state = state;
    status.textContent = text;
  }

  async function getJson(url, init) {
    const response = await fetch(url, { cache: 'no-store', ...init });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = new Error(body.message || `HTTP ${response.status}`);
      throw Object.assign(error, { code: body.error?.code, status: response.status, body });
    }
    return body;
  }

  /** The shop's backend reads the session with its secret key; poll until the SDK's signals are there. */
  async function showServiceView(sessionId, isCurrent) {
    for (let attempt = 0; attempt < POLL_ATTEMPTS && isCurrent(); attempt++) {
      const { data } = await getJson(`/api/fraud-sessions/${encodeURIComponent(sessionId)}`);
      if (!isCurrent()) return;
      byId('service-view').textContent = JSON.stringify(data, null, 2);
      if (data.signals) return;
      await sleep(POLL_INTERVAL_MS);
    }
  }

  function setWebhookStatus(state, text) {
    const status = byId('webhook-status');
    status.dataset.state = state;
    status.textContent = text;
  }

  function showNotifications(notifications) {
    byId('webhook-events').replaceChildren(
      ...notifications.map((notification) => {
        const item = document.createElement('li');
        item.dataset.type = notification.type;
        const type = document.createElement('strong');
        type.textContent = notification.type;
        const details = document.createElement('span');
        details.textContent = t('webhooks.details', {
          signature: notification.signature,
          charge: notification.charge.id,
          status: notification.charge.status,
          event: notification.id,
          received: notification.received_at,
        });
        item.append(type, details);
        return item;
      }),
    );
  }

  /**
   * Vigia notifies the shop's backend of the charge's outcome (a webhook it verifies with verifySignature); the
   * page asks the backend what it received for this charge until the outcome's notification is there.
   */
  async function awaitNotification(charge, isCurrent) {
    // A held charge announces its review; its decision then, its capture or cancellation.
    const expected = charge.status === 'in_review' ? 'charge.review_opened' : `charge.${charge.status}`;
    setWebhookStatus('waiting', t('webhooks.waiting', { type: expected }));
    showNotifications([]);
    for (let attempt = 0; attempt < POLL_ATTEMPTS && isCurrent(); attempt++) {
      const { data } = await getJson(`/api/charges/${encodeURIComponent(charge.id)}/events`);
      if (!isCurrent()) return;
      showNotifications(data);
      if (data.some((notification) => notification.type === expected)) {
        setWebhookStatus('received', t('webhooks.received', { type: expected }));
        return;
      }
      await sleep(POLL_INTERVAL_MS);
    }
    if (isCurrent()) setWebhookStatus('error', t('webhooks.missing', { type: expected }));
  }

  const CARD_FIELDS = ['number', 'holder_name', 'exp_month', 'exp_year', 'cvv'];
  const BRAND_NAMES = {
    visa: 'Visa',
    mastercard: 'Mastercard',
    amex: 'American Express',
    elo: 'Elo',
    hipercard: 'Hipercard',
    diners: 'Diners Club',
  };

  /**
   * Whether the buyer may still be typing a valid value into the field they are in: its error waits until they
   * leave it (a half-typed number is not wrong yet). Pay stays disabled meanwhile.
   */
  function stillTyping(error, value, brand, CARD_LENGTHS) {
    const compact = value.replace(/[\s-]/g, '');
    switch (error.code) {
      case 'REQUIRED':
        return true;
      case 'UNSUPPORTED_BRAND':
        return /^\d{0,5}$/.test(compact);
      case 'INVALID_LENGTH':
        return compact.length < Math.max(...(CARD_LENGTHS[brand] ?? [19]));
      case 'INVALID_HOLDER_NAME':
        return value.trim().length < 2 && !/\d/.test(value);
      case 'INVALID_YEAR':
        return /^\d{0,3}$/.test(value.trim());
      case 'INVALID_CVV':
        return /^\d{0,3}$/.test(value);
      default:
        return false;
    }
  }

  /** `[13, 16, 19]` → `13, 16 or 19` in the page's language. */
  const counts = (numbers) =>
    numbers.length > 1
      ? `${numbers.slice(0, -1).join(', ')} ${t('list.or')} ${numbers.at(-1)}`
      : String(numbers[0]);

  /**
   * The page's words for validateCard's code. A number of the wrong length names its brand's lengths: validateCard
   * names no brand before six digits (it says the brand is not accepted), while cardBrand already knows it.
   */
  function messageFor(error, brand, { CARD_LENGTHS, cvvLength }) {
    const lengths = brand && CARD_LENGTHS[brand];
    if (lengths && ['INVALID_LENGTH', 'UNSUPPORTED_BRAND'].includes(error.code)) {
      return t('cardError.INVALID_LENGTH', { brand: BRAND_NAMES[brand] ?? brand, counts: counts(lengths) });
    }
    switch (error.code) {
      case 'REQUIRED':
        return t(`cardError.REQUIRED.${error.field}`);
      case 'INVALID_YEAR':
        return t('cardError.INVALID_YEAR', { max: String(new Date().getUTCFullYear() + 20) });
      case 'INVALID_CVV':
        return t('cardError.INVALID_CVV', { counts: counts(brand ? [cvvLength(brand)] : [3, 4]) });
      default:
        return t(`cardError.${error.code}`);
    }
  }

  /**
   * The card form, checked on every keystroke with the SDK's pure helpers (nothing is sent): the brand as the
   * number is typed, one message per field (`#<field>-error`, tied to its input by aria-describedby, with
   * aria-invalid), and `isValid()` for the Pay button. `onChange` runs after every check.
   */
  function cardForm(form, helpers, onChange) {
    const { validateCard, cardBrand, CARD_LENGTHS } = helpers;
    const inputs = Object.fromEntries(CARD_FIELDS.map((name) => [name, form.elements.namedItem(name)]));
    const brandShown = byId('card-brand');
    const values = () => Object.fromEntries(CARD_FIELDS.map((name) => [name, inputs[name].value]));
    let errors = [];

    function check(event) {
      const card = values();
      errors = validateCard(card);
      const brand = cardBrand(card.number);
      brandShown.dataset.brand = brand ?? '';
      brandShown.textContent = brand ? (BRAND_NAMES[brand] ?? brand) : '';
      // The field being left (focusout) is no longer being typed in.
      const typingIn = event?.type === 'focusout' ? null : document.activeElement;
      for (const name of CARD_FIELDS) {
        const input = inputs[name];
        const error = errors.find((candidate) => candidate.field === name);
        const shown = error && !(input === typingIn && stillTyping(error, input.value, brand, CARD_LENGTHS));
        input.setAttribute('aria-invalid', shown ? 'true' : 'false');
        const message = byId(`${name}-error`);
        message.textContent = shown ? messageFor(error, brand, helpers) : '';
        message.hidden = !shown;
      }
      onChange();
    }

    form.addEventListener('input', check);
    form.addEventListener('focusout', check);
    check();
    return { values, isValid: () => errors.length === 0 };
  }

  /**
   * What the shop tells the buyer about the outcome. `failure_message` is the service's explanation for the shop;
   * the buyer gets what to do next (`buyer.<failure_code>`), never the fraud analysis's reasons.
   */
  function buyerMessage(charge) {
    if (charge.status === 'captured')
      return t(charge.review?.decision === 'approve' ? 'buyer.captured_after_review' : 'buyer.captured');
    // Held for review: authorized, not charged; and when the shop rejects it, nothing was taken.
    if (charge.status === 'in_review' || charge.status === 'canceled') return t(`buyer.${charge.status}`);
    return window.DemoMessages[`buyer.${charge.failure_code}`] ?? t('buyer.fallback');
  }
  const statusText = (status) => window.DemoMessages[`status.${status}`] ?? status;

  /**
   * The shop's side of a held charge: its team approves or rejects it (on the dashboard, in a real shop), and the
   * buyer's page then shows the decision. `onDecided` gets the charge as the review left it.
   */
  function reviewDecision(charge, onDecided) {
    const error = el('p', { className: 'field-error', role: 'alert' });
    const decide = (decision) => async () => {
      for (const button of buttons) button.disabled = true;
      error.textContent = '';
      try {
        const { data } = await getJson(`/api/charges/${encodeURIComponent(charge.id)}/review`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ decision }),
        });
        onDecided(data);
      } catch (failed) {
        error.textContent = t('review.failed', { reason: explain(failed) });
        for (const button of buttons) button.disabled = false;
      }
    };
    const buttons = ['approve', 'reject'].map((decision) =>
      el('button', { type: 'button', onclick: decide(decision) }, t(`review.${decision}`)),
    );
    return el(
      'section',
      { className: 'review-decision' },
      el('h3', {}, t('review.title')),
      el('p', { className: 'hint' }, t('review.hint')),
      ...buttons,
      error,
    );
  }

  /** The charge as the service answered it: its outcome, and the fraud analysis that went into it. */
  function showCharge(charge, onDecided) {
    const analysis = charge.fraud_analysis ?? { status: 'not_analyzed', score: 0, reasons: [] };
    const entry = (term, id, value) => [el('dt', {}, term), el('dd', { id }, value)];
    const reasons = analysis.reasons.length
      ? el(
          'ul',
          {},
          ...analysis.reasons.map((code) => {
            const reason = window.DemoMessages[`reason.${code}`];
            const item = el('li', {}, el('code', {}, code), reason ? ` ${reason}` : '');
            item.dataset.code = code;
            return item;
          }),
        )
      : t('outcome.none');
    const card = charge.card
      ? `${BRAND_NAMES[charge.card.brand] ?? charge.card.brand} •••• ${charge.card.last4}`
      : '—';
    const result = byId('pay-result');
    result.dataset.status = charge.status;
    result.replaceChildren(
      el('p', { id: 'buyer-message', className: 'summary' }, buyerMessage(charge)),
      el(
        'dl',
        { className: 'outcome' },
        ...entry(t('outcome.charge'), 'charge-status', statusText(charge.status)),
        ...entry(t('outcome.card'), 'charge-card', card),
        ...(charge.status === 'failed'
          ? [
              ...entry('failure_code', 'failure-code', charge.failure_code ?? '—'),
              ...entry('failure_message', 'failure-message', charge.failure_message ?? '—'),
            ]
          : []),
        ...entry(t('outcome.analysis'), 'fraud-status', statusText(analysis.status)),
        ...entry(t('outcome.score'), 'fraud-score', String(analysis.score)),
        ...entry(t('outcome.reasons'), 'fraud-reasons', reasons),
        ...entry(t('outcome.id'), 'charge-id', charge.id),
      ),
      ...(charge.status === 'in_review' ? [reviewDecision(charge, onDecided)] : []),
    );
  }

  function showPaymentError(error) {
    const result = byId('pay-result');
    result.dataset.status = 'error';
    result.dataset.code = error?.code ?? 'ERROR';
    result.replaceChildren(
      el('p', { id: 'buyer-message', className: 'summary' }, t('result.failed', { reason: explain(error) })),
    );
  }

  /** `build` names how the page loaded the SDK: `script` (script tag) or `spa` (ES module). */
  function run(Sdk, build, cardHelpers) {
    const label = t(`build.${build}`);
    const sdk = new Sdk(meta('vigia-public-key'), {
      baseUrl: meta('vigia-api-url'),
      // A local stand-in for a public IP lookup service; the SDK tries the service's /v1/ip after it.
      ipLookupUrls: [`${location.origin}/ip-lookup`],
    });
    let sessionId = null;
    let generation = 0;
    let payments = 0;
    let paying = false;

    async function startSession() {
      const mine = ++generation;
      sessionId = null;
      updatePayButton();
      setStatus('loading', t('fraud.creating'));
      const result = await sdk.fraudAnalysis.setup();
      sessionId = result.sessionId;
      byId('session-id').textContent = result.sessionId;
      byId('expires-at').textContent = result.expiresAt;
      setStatus('ready', t('fraud.collecting', { build: label }));
      updatePayButton();
      sdk.fraudAnalysis.reported().then((sent) => {
        if (mine !== generation) return;
        setStatus(
          sent ? 'reported' : 'ready',
          sent ? t('fraud.reported', { build: label }) : t('fraud.notReported'),
        );
      });
      showServiceView(result.sessionId, () => mine === generation).catch((error) => {
        byId('service-view').textContent = t('fraud.unreadable', { reason: explain(error) });
      });
    }

    const form = byId('pay-form');
    const payButton = form.querySelector('button[type="submit"]');
    // Pay is enabled only with a session, no payment under way and a card that passes every check.
    let card = null;
    const updatePayButton = () => {
      payButton.disabled = !(sessionId && !paying && card?.isValid());
    };
    card = cardForm(form, cardHelpers, updatePayButton);

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (payButton.disabled) return;
      paying = true;
      updatePayButton();
      const result = byId('pay-result');
      delete result.dataset.status;
      delete result.dataset.code;
      result.textContent = t('result.paying');
      // A new payment: the previous one's notifications make way.
      const payment = ++payments;
      setWebhookStatus('idle', t('result.paying'));
      showNotifications([]);
      try {
        const token = await sdk.cards.tokenize(card.values());
        const { data: charge } = await getJson('/api/pay', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            card_token: token.id,
            fraud_session_id: sessionId,
            hold_for_review: byId('hold-for-review').checked,
          }),
        });
        // The outcome and its notification; a held charge's later decision is shown the same way, in its place.
        let step = 0;
        const show = (shown) => {
          if (payment !== payments) return;
          const mine = ++step;
          const isCurrent = () => payment === payments && mine === step;
          awaitNotification(shown, isCurrent).catch((error) => {
            if (isCurrent()) setWebhookStatus('error', t('webhooks.unreadable', { reason: explain(error) }));
          });
          showCharge(shown, show);
        };
        show(charge);
      } catch (error) {
        showPaymentError(error);
        setWebhookStatus('idle', t('webhooks.noCharge'));
      }
      // A session is single use: once the card was tokenized with it, setup() hands the next attempt a new one.
      try {
        await startSession();
      } catch (error) {
        setStatus('error', t('fraud.failed', { reason: explain(error) }));
      }
      paying = false;
      updatePayButton();
    });

    (async () => {
      try {
        setStatus('loading', t('fraud.checkingKey'));
        await sdk.init();
        await startSession();
      } catch (error) {
        setStatus('error', t('fraud.failed', { reason: explain(error) }));
      }
    })();
  }

  window.DemoUi = { run };
})();
