import { useState } from 'preact/hooks';
import { call, get } from '../api.js';
import { formatTime, type Messages, t } from '../i18n/index.js';
import type { SessionUser } from '../main.js';
import { CopyButton, FieldErrors, Notice, Page, Show, Table, useAction, useLoad } from '../ui.js';

interface TeamUser {
  id: string;
  email: string;
  role: SessionUser['role'];
  merchant_id: string | null;
  disabled: boolean;
  password_set: boolean;
  created_at: string;
}

const ROLES = ['owner', 'developer', 'viewer'] as const;

/**
 * Owners manage their merchant's users, the operator everyone's (docs/decisions/dashboard-user-admin.md):
 * disable (their sessions end at once), enable, change a role, reset a password (a one-time link to hand
 * over), sign out, forget failed sign-ins.
 */
export function TeamPage(props: { user: SessionUser }) {
  const users = useLoad(() => get<TeamUser[]>('/users'), []);
  const action = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const act = async (
    user: TeamUser,
    change: keyof Messages['team']['done'],
    method: string,
    path: string,
    body?: unknown,
  ) => {
    setLink(null);
    const done = await action.run(async () => {
      const answer = await call<TeamUser & { password_set_url?: string }>(
        method,
        `/users/${user.id}${path}`,
        body,
      );
      setNotice(`${user.email}: ${t.team.done[change]}`);
      if (answer.data.password_set_url) setLink({ email: user.email, url: answer.data.password_set_url });
    });
    if (done) users.reload();
  };
  return (
    <Page title={t.team.title}>
      {notice && <Notice kind="success">{notice}</Notice>}
      {link && (
        <Notice kind="warning">
          {t.team.sendLink(link.email)} <code>{link.url}</code>{' '}
          <CopyButton text={link.url} label={t.team.copyLink} />
        </Notice>
      )}
      <FieldErrors error={action.error} />
      {action.error && <Notice kind="error">{action.error.message}</Notice>}
      <Show loaded={users}>
        {(answer) => (
          <Table
            caption={t.team.users}
            head={[t.team.head.user, t.team.head.role, t.team.head.state, t.team.head.actions]}
          >
            {answer.data.map((user) => {
              const self = user.id === props.user.id;
              return (
                <tr key={user.id}>
                  <td>
                    {user.email}
                    <br />
                    <small class="muted">{t.team.since(formatTime(user.created_at))}</small>
                  </td>
                  <td>
                    {user.merchant_id === null || self ? (
                      t.common.roles[user.role]
                    ) : (
                      <select
                        aria-label={t.team.roleOf(user.email)}
                        value={user.role}
                        disabled={action.busy}
                        onChange={(event) =>
                          act(user, 'role', 'PATCH', '', { role: event.currentTarget.value })
                        }
                      >
                        {ROLES.map((role) => (
                          <option key={role} value={role}>
                            {t.common.roles[role]}
                          </option>
                        ))}
                      </select>
                    )}
                  </td>
                  <td>
                    {user.disabled
                      ? t.team.disabled
                      : user.password_set
                        ? t.team.active
                        : t.team.passwordNotSet}
                  </td>
                  <td class="actions">
                    {!self && (
                      <button
                        type="button"
                        disabled={action.busy}
                        onClick={() =>
                          user.disabled
                            ? act(user, 'enable', 'POST', '/enable')
                            : act(user, 'disable', 'POST', '/disable')
                        }
                      >
                        {user.disabled ? t.team.enable : t.team.disable}
                      </button>
                    )}
                    {!self && (
                      <button
                        type="button"
                        disabled={action.busy}
                        onClick={() => act(user, 'resetPassword', 'POST', '/reset-password')}
                      >
                        {t.team.resetPassword}
                      </button>
                    )}
                    <button
                      type="button"
                      disabled={action.busy}
                      onClick={() => act(user, 'signOut', 'POST', '/sign-out')}
                    >
                      {t.team.signOutEverywhere}
                    </button>
                    {!self && (
                      <button
                        type="button"
                        disabled={action.busy}
                        onClick={() => act(user, 'unlock', 'POST', '/unlock')}
                      >
                        {t.team.forgetFailures}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
      </Show>
    </Page>
  );
}
