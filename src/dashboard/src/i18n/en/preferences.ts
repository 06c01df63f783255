export const preferences = {
  title: 'Preferences',
  intro: 'Saved with your user: they follow you on every browser.',
  language: 'Language',
  timeZone: 'Time zone',
  timeZoneHint: 'Times on every page are shown in this zone.',
  save: 'Save preferences',
  saved: 'Preferences saved.',
  /** Each language named in itself, so a reader finds their own. */
  languages: { 'pt-BR': 'Português (Brasil)', en: 'English' },
};
