/** The Developers page: an area catalogue, loaded with its page (docs/decisions/dashboard-message-catalogue.md). */
export const developers = {
  title: 'Developers',
  publicKeyMissing:
    'Your public key was issued before Vigia kept public keys, so it cannot be shown here. Roll the public key to see the new one on this page.',
  publicKey: 'Public key:',
  copyPublicKey: 'Copy the public key',
  keys: 'API keys',
  keysIntro:
    'Your checkout page uses the public key (pk_…), your server the secret key (sk_…). The public key is public by design; Vigia keeps only a hash of your secret key, so it cannot show it again. Roll a key to get a new one; the old key keeps working for 24 hours, so you can deploy the new one.',
  keyKind: { secret: 'secret', public: 'public' },
  newKey: (kind: string) => `Your new ${kind} key, shown only now:`,
  copyNewKey: (kind: string) => `Copy the new ${kind} key`,
  oldKeyUntil: (kind: string) => `The old ${kind} key works until`,
  rollSecret: 'Roll secret key',
  rollPublic: 'Roll public key',
  ownersOnly: 'Only an owner of the account can roll keys.',
  rollTitle: (kind: string) => `Roll the ${kind} key?`,
  rollConfirm: 'Roll key',
  rollSecretWarning:
    'Your server must use the new secret key within 24 hours: then the old one stops working.',
  rollPublicWarning:
    'Your checkout must use the new public key within 24 hours: then the old one stops working.',
  checkout: 'Checkout settings',
  mandatory: 'Fraud analysis mandatory (charges without a fraud session are refused)',
  allowedHosts: 'Allowed hosts, one per line (empty: any host may use your public key)',
  settingsSaved: 'Settings saved.',
  saveSettings: 'Save settings',
  thresholds: 'Risk thresholds',
  thresholdsIntro:
    'A charge whose score reaches the review threshold is flagged for review; at the decline threshold it fails.',
  ownThresholds: ' These are your own.',
  defaultThresholds: ' These are the platform defaults.',
  reviewAt: 'Review at',
  declineAt: 'Decline at',
  pointsPerReason: 'Points per reason code',
  thresholdsSaved: 'Thresholds saved.',
  saveThresholds: 'Save thresholds',
  restoreDefaults: 'Restore defaults',
  merchantId: 'Merchant id',
};

export type DeveloperMessages = typeof developers;
