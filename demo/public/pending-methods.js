// PIX and boleto on the demo checkout: the shop's backend makes a pending charge (POST /api/pay-pending), the page
// shows the QR code and copy-and-paste code (PIX) or the digitable line and the printable boleto's link, then
// asks the backend every second whether Vigia's charge.paid notification arrived: the page updates itself, no reload.
// Test mode plays the buyer's bank ("Simulate the payment").
(() => {
  /** This file's words, in the page's language (demo/messages.ts, `pending.*`, served as /messages.js). */
  const text = (key) => window.DemoMessages[`pending.${key}`] ?? key;

  const byId = (id) => document.getElementById(id);
  const el = (tag, properties = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), properties);
    node.append(...children);
    return node;
  };

  async function postJson(url, body) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.message ?? `HTTP ${response.status}`);
    return answer.data;
  }

  /** Polls the backend until the webhook said paid; stops when another charge replaced this one. */
  async function awaitPaid(chargeId, status, isCurrent) {
    while (isCurrent()) {
      const response = await fetch(`/api/charges/${chargeId}/paid`, { cache: 'no-store' });
      if (response.ok && (await response.json()).paid) {
        status.textContent = text('paid');
        status.dataset.state = 'paid';
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  function pixView(charge) {
    const code = el('input', { readOnly: true, value: charge.pix.br_code, id: 'pix-code' });
    code.setAttribute('aria-label', 'PIX code');
    const copy = el('button', { type: 'button', textContent: text('copy') });
    copy.addEventListener('click', async () => {
      await navigator.clipboard?.writeText(charge.pix.br_code).catch(() => {});
      copy.textContent = text('copied');
    });
    const image = el('img', {
      src: `data:image/svg+xml;base64,${btoa(charge.pix.qr_code_svg)}`,
      alt: 'PIX QR code',
      width: 200,
      height: 200,
      id: 'pix-qr',
    });
    return [el('p', { textContent: text('pix_title') }), image, code, copy];
  }

  function boletoView(charge) {
    const line = charge.boleto.digitable_line;
    const printed = `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ${line.slice(21, 26)}.${line.slice(26, 32)} ${line[32]} ${line.slice(33)}`;
    return [
      el('p', { textContent: text('boleto_title') }),
      el('p', { id: 'boleto-line', className: 'mono', textContent: printed }),
      el('p', { textContent: `${text('due_date')}: ${charge.boleto.due_date}` }),
      el('a', {
        id: 'boleto-link',
        href: charge.boleto.url,
        target: '_blank',
        rel: 'noreferrer',
        textContent: text('open_boleto'),
      }),
    ];
  }

  function start() {
    const result = byId('pending-result');
    if (!result) return;
    let generation = 0;
    for (const button of document.querySelectorAll('[data-pending-method]')) {
      button.addEventListener('click', async () => {
        const mine = ++generation;
        const isCurrent = () => mine === generation;
        result.replaceChildren(text('creating'));
        try {
          const charge = await postJson('/api/pay-pending', { method: button.dataset.pendingMethod });
          if (!isCurrent()) return;
          if (charge.status !== 'pending') {
            result.replaceChildren(el('p', { textContent: text('declined') }));
            return;
          }
          const status = el('p', { id: 'pending-status', textContent: text('waiting'), role: 'status' });
          status.dataset.state = 'waiting';
          const simulate = el('button', {
            type: 'button',
            textContent: text('simulate'),
            id: 'simulate-payment',
          });
          simulate.addEventListener('click', () => {
            simulate.disabled = true;
            postJson(`/api/charges/${charge.id}/simulate-payment`).catch((error) => {
              status.textContent = error.message;
            });
          });
          result.replaceChildren(...(charge.pix ? pixView(charge) : boletoView(charge)), status, simulate);
          await awaitPaid(charge.id, status, isCurrent);
        } catch (error) {
          if (isCurrent()) result.replaceChildren(`${text('failed')} ${error.message}`);
        }
      });
    }
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
