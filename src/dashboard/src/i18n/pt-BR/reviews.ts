import type { Messages } from '../en/index.js';

export const reviews: Messages['reviews'] = {
  title: 'Análises',
  order: 'Ordem',
  oldestFirst: 'Mais antigas primeiro',
  largestFirst: 'Maiores primeiro',
  hint: 'Cobranças que a análise de fraude reteve: autorizadas, não capturadas. Aprovar captura, recusar libera a autorização. Teclas: j/k navegam, a aprova, r recusa.',
  caption: 'Cobranças em análise',
  head: {
    merchant: 'Lojista',
    amount: 'Valor',
    risk: 'Risco',
    customer: 'Cliente',
    waiting: 'Aguardando',
    closes: 'Encerra',
  },
  empty: 'Nenhuma cobrança aguardando análise.',
  score: (score: number) => `pontuação ${score}`,
  waitingCloses: (waiting: string, closes: string) => `aguardando ${waiting}, encerra ${closes}`,
  chargePage: 'página da cobrança',
  noReasons: 'Nenhum motivo de risco registrado.',
  note: 'Observação (opcional)',
  approve: 'Aprovar (a)',
  reject: 'Recusar (r)',
  decided: (amount: string, customer: string, approved: boolean) =>
    `${amount} de ${customer} ${approved ? 'aprovada: capturada' : 'recusada: cancelada'}.`,
  operatorTitle: 'Cobranças em análise',
  operatorCaption: 'Cobranças em análise, todos os lojistas',
  operatorEmpty: 'Nenhum lojista tem cobranças aguardando análise.',
};
