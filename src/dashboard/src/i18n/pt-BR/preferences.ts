import type { Messages } from '../en/index.js';

export const preferences: Messages['preferences'] = {
  title: 'Preferências',
  intro: 'Salvas com seu usuário: valem em qualquer navegador.',
  language: 'Idioma',
  timeZone: 'Fuso horário',
  timeZoneHint: 'Os horários de todas as páginas são mostrados neste fuso.',
  save: 'Salvar preferências',
  saved: 'Preferências salvas.',
  languages: { 'pt-BR': 'Português (Brasil)', en: 'English' },
};
