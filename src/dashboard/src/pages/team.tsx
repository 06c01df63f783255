import { useState } from 'preact/hooks';
import { call, get } from '../api.js';
import type { SessionUser } from '../main.js';
import { CopyButton, FieldErrors, formatTime, Notice, Page, Show, Table, useAction, useLoad } from '../ui.js';

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
  const act = async (user: TeamUser, method: string, path: string, body?: unknown) => {
    setLink(null);
    const done = await action.run(async () => {
      const answer = await call<TeamUser & { password_set_url?: string }>(
        method,
        `/users/${user.id}${path}`,
        body,
      );
      setNotice(`${user.email}: ${answer.message}`);
      if (answer.data.password_set_url) setLink({ email: user.email, url: answer.data.password_set_url });
    });
    if (done) users.reload();
  };
  return (
    <Page title="Team">
      {notice && <Notice kind="success">{notice}</Notice>}
      {link && (
        <Notice kind="warning">
          Send this one-time link to {link.email} (it works once, for 7 days): <code>{link.url}</code>{' '}
          <CopyButton text={link.url} label="Copy the link" />
        </Notice>
      )}
      <FieldErrors error={action.error} />
      {action.error && <Notice kind="error">{action.error.message}</Notice>}
      <Show loaded={users}>
        {(answer) => (
          <Table caption="Users" head={['User', 'Role', 'State', 'Actions']}>
            {answer.data.map((user) => {
              const self = user.id === props.user.id;
              return (
                <tr key={user.id}>
                  <td>
                    {user.email}
                    <br />
                    <small class="muted">since {formatTime(user.created_at)}</small>
                  </td>
                  <td>
                    {user.merchant_id === null || self ? (
                      user.role
                    ) : (
                      <select
                        aria-label={`Role of ${user.email}`}
                        value={user.role}
                        disabled={action.busy}
                        onChange={(event) => act(user, 'PATCH', '', { role: event.currentTarget.value })}
                      >
                        {ROLES.map((role) => (
                          <option key={role} value={role}>
                            {role}
                          </option>
                        ))}
                      </select>
                    )}
                  </td>
                  <td>
                    {user.disabled ? 'Disabled' : user.password_set ? 'Active' : 'Password not set yet'}
                  </td>
                  <td class="actions">
                    {!self && (
                      <button
                        type="button"
                        disabled={action.busy}
                        onClick={() => act(user, 'POST', user.disabled ? '/enable' : '/disable')}
                      >
                        {user.disabled ? 'Enable' : 'Disable'}
                      </button>
                    )}
                    {!self && (
                      <button
                        type="button"
                        disabled={action.busy}
                        onClick={() => act(user, 'POST', '/reset-password')}
                      >
                        Reset password
                      </button>
                    )}
                    <button
                      type="button"
                      disabled={action.busy}
                      onClick={() => act(user, 'POST', '/sign-out')}
                    >
                      Sign out everywhere
                    </button>
                    {!self && (
                      <button
                        type="button"
                        disabled={action.busy}
                        onClick={() => act(user, 'POST', '/unlock')}
                      >
                        Forget failed sign-ins
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
