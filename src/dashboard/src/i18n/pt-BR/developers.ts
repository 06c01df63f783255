import type { DeveloperMessages } from '../en/developers.js';

export const developers: DeveloperMessages = {
  title: 'Desenvolvedores',
  publicKeyMissing:
    'Sua chave pública foi emitida antes de o Vigia guardar chaves públicas, então não pode ser mostrada aqui. Troque a chave pública para ver a nova nesta página.',
  publicKey: 'Chave pública:',
  copyPublicKey: 'Copiar a chave pública',
  keys: 'Chaves de API',
  keysIntro:
    'Sua página de checkout usa a chave pública (pk_…) e seu servidor a chave secreta (sk_…). A chave pública é pública por natureza; o Vigia guarda só um hash da sua chave secreta, então não pode mostrá-la de novo. Troque uma chave para receber uma nova; a anterior continua valendo por 24 horas, para você publicar a nova.',
  keyKind: { secret: 'secreta', public: 'pública' },
  newKey: (kind) => `Sua nova chave ${kind}, mostrada só agora:`,
  copyNewKey: (kind) => `Copiar a nova chave ${kind}`,
  oldKeyUntil: (kind) => `A chave ${kind} anterior vale até`,
  rollSecret: 'Trocar a chave secreta',
  rollPublic: 'Trocar a chave pública',
  ownersOnly: 'Só um proprietário da conta pode trocar chaves.',
  rollTitle: (kind) => `Trocar a chave ${kind}?`,
  rollConfirm: 'Trocar chave',
  rollSecretWarning:
    'Seu servidor precisa usar a nova chave secreta em até 24 horas: depois a anterior para de funcionar.',
  rollPublicWarning:
    'Seu checkout precisa usar a nova chave pública em até 24 horas: depois a anterior para de funcionar.',
  checkout: 'Configurações do checkout',
  mandatory: 'Análise antifraude obrigatória (cobranças sem sessão antifraude são recusadas)',
  allowedHosts: 'Hosts permitidos, um por linha (vazio: qualquer host pode usar sua chave pública)',
  settingsSaved: 'Configurações salvas.',
  saveSettings: 'Salvar configurações',
  thresholds: 'Limites de risco',
  thresholdsIntro:
    'Uma cobrança cuja pontuação alcança o limite de revisão é marcada para revisão; no limite de recusa, ela é recusada.',
  ownThresholds: ' Estes são os seus.',
  defaultThresholds: ' Estes são os padrões da plataforma.',
  reviewAt: 'Revisar a partir de',
  declineAt: 'Recusar a partir de',
  pointsPerReason: 'Pontos por motivo de risco',
  thresholdsSaved: 'Limites salvos.',
  saveThresholds: 'Salvar limites',
  restoreDefaults: 'Voltar aos padrões',
  merchantId: 'Id do lojista',
};
