import { useState } from 'preact/hooks';
import { call, get } from '../api.js';
import { area, formatTime, t } from '../i18n/index.js';
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
    change: keyof (typeof area)['team']['done'],
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
      setNotice(`${user.email}: ${area.team.done[change]}`);
      if (answer.data.password_set_url) setLink({ email: user.email, url: answer.data.password_set_url });
    });
    if (done) users.reload();
  };
  return (
    <Page title={area.team.title}>
      {notice && <Notice kind="success">{notice}</Notice>}
      {link && (
        <Notice kind="warning">
          {area.team.sendLink(link.email)} <code>{link.url}</code>{' '}
          <CopyButton text={link.url} label={area.team.copyLink} />
        </Notice>
      )}
      <FieldErrors error={action.error} />
      {action.error && <Notice kind="error">{action.error.message}</Notice>}
      <Show loaded={users}>
        {(answer) => (
          <Table
            caption={area.team.users}
            head={[area.team.head.user, area.team.head.role, area.team.head.state, area.team.head.actions]}
          >
            {answer.data.map((user) => {
              const self = user.id === props.user.id;
              return (
                <tr key={user.id}>
                  <td>
                    {user.email}
                    <br />
                    <small class="muted">{area.team.since(formatTime(user.created_at))}</small>
                  </td>
                  <td>
                    {user.merchant_id === null || self ? (
                      t.common.roles[user.role]
                    ) : (
                      <select
                        aria-label={area.team.roleOf(user.email)}
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
                      ? area.team.disabled
                      : user.password_set
                        ? area.team.active
                        : area.team.passwordNotSet}
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
                        {user.disabled ? area.team.enable : area.team.disable}
                      </button>
                    )}
                    {!self && (
                      <button
                        type="button"
                        disabled={action.busy}
                        onClick={() => act(user, 'resetPassword', 'POST', '/reset-password')}
                      >
                        {area.team.resetPassword}
                      </button>
                    )}
                    <button
                      type="button"
                      disabled={action.busy}
                      onClick={() => act(user, 'signOut', 'POST', '/sign-out')}
                    >
                      {area.team.signOutEverywhere}
                    </button>
                    {!self && (
                      <button
                        type="button"
                        disabled={action.busy}
                        onClick={() => act(user, 'unlock', 'POST', '/unlock')}
                      >
                        {area.team.forgetFailures}
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
