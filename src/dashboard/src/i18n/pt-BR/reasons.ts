import type { Messages } from '../en/index.js';

export const reasons: Messages['reasons'] = {
  AUTOMATION_DETECTED: 'A detecção de robôs do perfilador encontrou automação do navegador.',
  HEADLESS_USER_AGENT: 'O navegador se declara headless (HeadlessChrome).',
  DRIVER_GLOBALS:
    'A página tem variáveis globais que um controlador de navegador injeta (Selenium, Puppeteer, Playwright…).',
  EMULATED_VIEWPORT: 'O tamanho da página não corresponde à janela: uma tela emulada por um controlador.',
  HISTORY_UNTHROTTLED:
    'Chromium aberto sem o limite de atualizações de histórico, como os controladores o abrem.',
  NATIVE_LIES:
    'Funções nativas do navegador foram substituídas ou embrulhadas: um kit furtivo ou uma extensão.',
  WORKER_MISMATCH:
    'Um worker da página descreve outro dispositivo que a página: o JavaScript da página foi alterado.',
  IFRAME_MISMATCH: 'Um iframe novo descreve outro dispositivo que a página: a página foi alterada.',
  DEVTOOLS_PROTOCOL: 'Um cliente de controle remoto leu o console da página: um controlador de navegador.',
  HOST_NOT_ALLOWED: 'A página de checkout não está em um dos hosts permitidos do lojista.',
  BROWSER_TYPE_MISMATCH: 'O navegador declarado pelo SDK difere do seu user agent.',
  IP_MISMATCH: 'O IP público informado pelo navegador difere do que o serviço viu.',
  DEVICE_VELOCITY: 'Este dispositivo fez cobranças demais com o lojista na última hora.',
  CARD_VELOCITY: 'Este cartão fez cobranças demais com o lojista na última hora.',
  PROFILE_MISSING: 'Nenhum perfil do dispositivo chegou ao serviço antes da cobrança.',
  COOKIES_DISABLED: 'O navegador está com os cookies desativados.',
  SIGNALS_MISSING: 'Nenhum relatório de sinais chegou à sessão antes da cobrança.',
  PROFILE_UNCORROBORATED: 'O relatório do perfilador não tem o que toda execução real produz: foi inventado.',
  SIGNALS_USER_AGENT_CHANGED: 'Os sinais vieram com outro User-Agent que a sessão: outro cliente os enviou.',
  SIGNALS_IP_CHANGED: 'Os sinais vieram de outro IP que a sessão.',
  SIGNALS_TOO_FAST: 'O relatório do perfilador chegou mais rápido do que um perfilador consegue rodar.',
  COMPONENTS_CONTRADICT_USER_AGENT: 'Os componentes do dispositivo contradizem o seu user agent.',
  CHALLENGE_WRONG: 'As respostas ao desafio da sessão não são do motor de navegador declarado.',
  CHALLENGE_UNANSWERED: 'O relatório do perfilador veio sem as respostas ao desafio da sessão.',
  FETCH_METADATA_MISSING:
    'As requisições do navegador não têm os cabeçalhos Fetch Metadata que o seu motor sempre envia.',
  CLIENT_HINTS_CONTRADICT_USER_AGENT: 'Os client hints do navegador contradizem o seu User-Agent.',
  ACCEPT_LANGUAGE_MISMATCH: 'O Accept-Language do navegador falta ou difere do idioma da página.',
  VISITOR_REUSED: 'O id deste dispositivo foi informado por outro motor de navegador ou sistema operacional.',
  VISITOR_MANY_CARDS: 'Este dispositivo pagou com cartões diferentes demais em 24 horas: teste de cartões.',
  VISITOR_MANY_BUYERS: 'Este dispositivo pagou por compradores diferentes demais em 24 horas.',
  VISITOR_MANY_IPS: 'As sessões deste dispositivo vieram de IPs demais em 24 horas: proxies rotativos.',
  DEVICE_SHARED_ACROSS_MERCHANTS:
    'Este dispositivo pagou há pouco em outro lojista, para outro comprador, com outro cartão.',
  DEVICE_CARDS_ACROSS_MERCHANTS: 'Este dispositivo usou muitos cartões em vários lojistas em pouco tempo.',
  VISITOR_ID_FORGED: 'O id deste dispositivo foi visto com outros componentes: o relatório foi editado.',
  BEHAVIOR_POINTER_TELEPORT: 'Cada clique caiu sem movimento do ponteiro antes: um controlador clicando.',
  BEHAVIOR_SCRIPTED_INPUT:
    'Um campo do checkout recebeu o valor sem digitação, colagem ou preenchimento automático: foi um script.',
  BEHAVIOR_ROBOTIC_TYPING: 'A digitação não teve ritmo humano.',
  BEHAVIOR_TOO_FAST: 'O formulário foi digitado mais rápido do que qualquer pessoa digita.',
  FRAUD_LABEL_AT_MERCHANT:
    'Este cartão, comprador ou dispositivo esteve numa cobrança que você confirmou como fraude.',
  FRAUD_LABEL_ON_PLATFORM:
    'Este cartão, comprador ou dispositivo esteve numa cobrança confirmada como fraude em outro lojista da plataforma.',
};
