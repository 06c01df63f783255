import type { Messages } from '../en/index.js';

export const queue: Messages['queue'] = {
  reject: 'Rejeitar',
  reason: 'Motivo (o lojista o vê)',
  reasonRequired: 'Escreva o motivo: o lojista o lê.',
  wait: {
    minutes: (m) => `${m} min`,
    hours: (h, m) => `${h} h ${m} min`,
    days: (d) => `${d} dias`,
  },
};
