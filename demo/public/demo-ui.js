// The demo's page logic, shared by both checkout pages (the script-tag page and the ES module page hand it
// their `Sdk`). It is what a merchant's checkout does: init, setup on load, send the sessionId to its own
// backend with the payment. It also shows what the service holds, which a real checkout would not.
(() => {
  const POLL_INTERVAL_MS = 500;
  const POLL_ATTEMPTS = 60;

  const byId = (id) => document.getElementById(id);
  const meta = (name) => document.querySelector(`meta[name="${name}"]`).content;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const explain = (error) => (error?.code ? `${error.code}: ${error.message}` : String(error));

  function setStatus(state, text) {
    const status = byId('status');
    status.dataset.state = state;
    status.textContent = text;
  }

  async function getJson(url, init) {
    const response = await fetch(url, { cache: 'no-store', ...init });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw Object.assign(new Error(body.message || `HTTP ${response.status}`), { body });
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
        details.textContent =
          ` · signature ${notification.signature} · charge ${notification.charge.id} ` +
          `(${notification.charge.status}) · event ${notification.id} · received ${notification.received_at}`;
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
    const expected = `charge.${charge.status}`;
    setWebhookStatus('waiting', `Waiting for the ${expected} notification…`);
    showNotifications([]);
    for (let attempt = 0; attempt < POLL_ATTEMPTS && isCurrent(); attempt++) {
      const { data } = await getJson(`/api/charges/${encodeURIComponent(charge.id)}/events`);
      if (!isCurrent()) return;
      showNotifications(data);
      if (data.some((notification) => notification.type === expected)) {
        setWebhookStatus('received', `Received and verified ${expected}.`);
        return;
      }
      await sleep(POLL_INTERVAL_MS);
    }
    if (isCurrent()) setWebhookStatus('error', `No ${expected} notification arrived.`);
  }

  function run(Sdk, label) {
    const sdk = new Sdk(meta('vigia-public-key'), {
      baseUrl: meta('vigia-api-url'),
      // A local stand-in for a public IP lookup service; the SDK tries the service's /v1/ip after it.
      ipLookupUrls: [`${location.origin}/ip-lookup`],
    });
    let sessionId = null;
    let generation = 0;
    let payments = 0;

    async function startSession() {
      const mine = ++generation;
      setStatus('loading', 'Creating the fraud session…');
      const result = await sdk.fraudAnalysis.setup();
      sessionId = result.sessionId;
      byId('session-id').textContent = result.sessionId;
      byId('expires-at').textContent = result.expiresAt;
      setStatus('ready', `Session ready (${label}); collecting device signals…`);
      sdk.fraudAnalysis.reported().then((sent) => {
        if (mine !== generation) return;
        setStatus(
          sent ? 'reported' : 'ready',
          sent
            ? `Session ready (${label}); device signals reported.`
            : 'Session ready; device signals not reported.',
        );
      });
      showServiceView(result.sessionId, () => mine === generation).catch((error) => {
        byId('service-view').textContent = `Could not read the session: ${explain(error)}`;
      });
    }

    const form = byId('pay-form');
    const payButton = form.querySelector('button');
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const result = byId('pay-result');
      payButton.disabled = true;
      result.textContent = 'Paying…';
      // A new payment: the previous one's notifications make way.
      const payment = ++payments;
      setWebhookStatus('idle', 'Paying…');
      showNotifications([]);
      try {
        const fields = Object.fromEntries(new FormData(form));
        const token = await sdk.cards.tokenize(fields);
        const { data: charge } = await getJson('/api/pay', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ card_token: token.id, fraud_session_id: sessionId }),
        });
        const isCurrent = () => payment === payments;
        awaitNotification(charge, isCurrent).catch((error) => {
          if (isCurrent()) setWebhookStatus('error', `Could not read the notifications: ${explain(error)}`);
        });
        const analysis = charge.fraud_analysis;
        result.textContent =
          `Charge ${charge.status} (${charge.card?.brand ?? ''} •••• ${charge.card?.last4 ?? ''}). ` +
          `Fraud analysis: ${analysis?.status ?? 'n/a'}, score ${analysis?.score ?? '–'}` +
          (analysis?.reasons?.length ? ` (${analysis.reasons.join(', ')})` : '') +
          '.';
      } catch (error) {
        result.textContent = `Payment failed: ${explain(error)}`;
        setWebhookStatus('idle', 'No charge was created, so there is nothing to notify.');
      }
      // A session is single use: the next attempt gets a new one.
      sdk.teardown();
      try {
        await startSession();
      } catch (error) {
        setStatus('error', `Failed: ${explain(error)}`);
      }
      payButton.disabled = false;
    });

    (async () => {
      try {
        setStatus('loading', 'Checking the public key…');
        await sdk.init();
        await startSession();
        payButton.disabled = false;
      } catch (error) {
        setStatus('error', `Failed: ${explain(error)}`);
      }
    })();
  }

  window.DemoUi = { run };
})();
