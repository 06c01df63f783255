import type { MoneyMessages as Messages } from '../en/money.js';

export const pricing: Messages['pricing'] = {
  title: (name) => `Tarifas: ${name}`,
  intro:
    'Valem para as cobranças feitas daqui em diante; os recebíveis já lançados mantêm as tarifas do seu dia.',
  back: '← Lojistas',
  cardMdr: 'MDR do cartão (% do valor)',
  oneInstallment: 'À vista (1 parcela)',
  twoToSix: '2 a 6 parcelas',
  sevenToTwelve: '7 a 12 parcelas',
  cardDelay: 'Prazo de recebimento do cartão (dias por parcela)',
  anticipation: 'Taxa de antecipação (% ao mês)',
  withdrawals: 'Saques',
  pixWithdrawalFee: 'Tarifa de saque por PIX (R$)',
  tedWithdrawalFee: 'Tarifa de saque por TED (R$)',
  minimumWithdrawal: 'Saque mínimo (R$)',
  pix: 'Cobranças PIX',
  boleto: 'Cobranças por boleto',
  fee: 'Tarifa (R$)',
  delay: 'Prazo de recebimento (dias)',
  percentHint: 'ex.: 2,99',
  moneyHint: 'ex.: 3,67',
  invalidPercent: 'Escreva uma porcentagem de 0 a 100 com no máximo duas casas decimais, como 2,99.',
  invalidMoney: 'Escreva um valor em reais com no máximo duas casas decimais, como 3,67.',
  invalidDays: 'Escreva um número inteiro de dias, de 0 a 365.',
  save: 'Salvar tarifas',
  saved: (name) => `Tarifas de ${name} salvas.`,
};
