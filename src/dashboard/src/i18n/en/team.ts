/** The Team page's words: an area catalogue, loaded with its page (i18n/index.ts `loadArea`). */
export const team = {
  title: 'Team',
  sendLink: (email: string) => `Send this one-time link to ${email} (it works once, for 7 days):`,
  copyLink: 'Copy the link',
  users: 'Users',
  head: { user: 'User', role: 'Role', state: 'State', actions: 'Actions' },
  since: (time: string) => `since ${time}`,
  roleOf: (email: string) => `Role of ${email}`,
  disabled: 'Disabled',
  active: 'Active',
  passwordNotSet: 'Password not set yet',
  enable: 'Enable',
  disable: 'Disable',
  resetPassword: 'Reset password',
  signOutEverywhere: 'Sign out everywhere',
  forgetFailures: 'Forget failed sign-ins',
  done: {
    disable: 'User disabled: their sessions ended.',
    enable: 'User enabled.',
    signOut: 'Every session of the user ended.',
    unlock: 'Failed sign-ins forgotten.',
    resetPassword:
      'Password reset: the old one no longer works. Send this one-time link (7 days) to the user.',
    role: 'Role changed.',
  },
};

export type TeamMessages = typeof team;
