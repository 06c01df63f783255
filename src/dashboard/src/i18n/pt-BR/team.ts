import type { TeamMessages } from '../en/team.js';

export const team: TeamMessages = {
  title: 'Equipe',
  sendLink: (email) => `Envie este link de uso único para ${email} (vale uma vez, por 7 dias):`,
  copyLink: 'Copiar o link',
  users: 'Usuários',
  head: { user: 'Usuário', role: 'Papel', state: 'Estado', actions: 'Ações' },
  since: (time) => `desde ${time}`,
  roleOf: (email) => `Papel de ${email}`,
  disabled: 'Desativado',
  active: 'Ativo',
  passwordNotSet: 'Senha ainda não definida',
  enable: 'Ativar',
  disable: 'Desativar',
  resetPassword: 'Redefinir senha',
  signOutEverywhere: 'Encerrar todas as sessões',
  forgetFailures: 'Esquecer tentativas falhas',
  done: {
    disable: 'Usuário desativado: as sessões dele foram encerradas.',
    enable: 'Usuário ativado.',
    signOut: 'Todas as sessões do usuário foram encerradas.',
    unlock: 'Tentativas de entrada falhas esquecidas.',
    resetPassword:
      'Senha redefinida: a anterior não vale mais. Envie este link de uso único (7 dias) ao usuário.',
    role: 'Papel alterado.',
  },
};
