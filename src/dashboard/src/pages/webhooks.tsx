import { useState } from 'preact/hooks';
import { call, get, query } from '../api.js';
import { formatCount, formatTime, t } from '../i18n/index.js';
import type { SessionUser } from '../main.js';
import { navigate } from '../router.js';
import {
  Badge,
  Confirm,
  CopyButton,
  EMPTY_LIST,
  Facts,
  FieldErrors,
  inputValue,
  Link,
  ListFilters,
  type ListState,
  Notice,
  Page,
  PagedTable,
  Pager,
  Show,
  Table,
  useAction,
  useLoad,
} from '../ui.js';

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  status: 'active' | 'paused';
  created_at: string;
  updated_at: string;
  secret?: string;
}

export interface Delivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempt_count: number;
  next_attempt_at: string | null;
  attempts: {
    attempt: number;
    attempted_at: string;
    response_status: number | null;
    latency_ms: number;
    error: string | null;
  }[];
  created_at: string;
}

const canChange = (user: SessionUser) => user.role !== 'viewer';

/** The signing secret, shown once after creating or regenerating it. */
function SecretOnce(props: { secret: string; onDone: () => void }) {
  return (
    <section class="card secret" aria-labelledby="secret-title">
      <h2 id="secret-title">{t.webhooks.secretTitle}</h2>
      <Notice kind="warning">{t.webhooks.secretOnce}</Notice>
      <p class="secret-value">
        <code data-testid="endpoint-secret">{props.secret}</code>{' '}
        <CopyButton text={props.secret} label={t.webhooks.copySecret} />
      </p>
      <button type="button" onClick={props.onDone}>
        {t.webhooks.secretStored}
      </button>
    </section>
  );
}

function EventChoices(props: { chosen: string[]; onChange: (events: string[]) => void }) {
  const types = useLoad(() => get<string[]>('/webhooks/event-types'), []);
  return (
    <fieldset>
      <legend>{t.webhooks.events}</legend>
      <Show loaded={types}>
        {(answer) =>
          answer.data.map((type) => (
            <label key={type} class="check">
              <input
                type="checkbox"
                checked={props.chosen.includes(type)}
                onChange={(event) =>
                  props.onChange(
                    event.currentTarget.checked
                      ? [...props.chosen, type]
                      : props.chosen.filter((chosen) => chosen !== type),
                  )
                }
              />
              {type}
            </label>
          ))
        }
      </Show>
    </fieldset>
  );
}

function EndpointForm(props: {
  initial?: Endpoint;
  submitLabel: string;
  onSubmit: (body: { url: string; events: string[] }) => Promise<unknown>;
}) {
  const [url, setUrl] = useState(props.initial?.url ?? '');
  const [events, setEvents] = useState<string[]>(props.initial?.events ?? []);
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    await action.run(() => props.onSubmit({ url, events }));
  };
  return (
    <form onSubmit={submit} class="stack">
      <label>
        {t.webhooks.url}
        <input
          type="url"
          required
          value={url}
          onInput={(e) => setUrl(inputValue(e))}
          placeholder="https://"
        />
      </label>
      <EventChoices chosen={events} onChange={setEvents} />
      <FieldErrors error={action.error} />
      <button type="submit" class="primary" disabled={action.busy}>
        {props.submitLabel}
      </button>
    </form>
  );
}

export function WebhooksPage(props: { user: SessionUser }) {
  const [list, setList] = useState<ListState>(EMPTY_LIST);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const endpoints = useLoad(
    () =>
      get<Endpoint[]>(
        `/v1/postbacks/endpoints${query({ page: list.page, search: list.search, status: list.status })}`,
      ),
    [list],
  );
  const create = async (body: { url: string; events: string[] }) => {
    const created = await call<Endpoint>('POST', '/v1/postbacks/endpoints', body);
    setSecret(created.data.secret ?? null);
    setCreating(false);
    endpoints.reload();
  };
  return (
    <Page
      title={t.webhooks.title}
      actions={
        canChange(props.user) &&
        !creating && (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            {t.webhooks.addEndpoint}
          </button>
        )
      }
    >
      {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
      {creating && (
        <section class="card" aria-labelledby="new-endpoint">
          <h2 id="new-endpoint">{t.webhooks.newEndpoint}</h2>
          <EndpointForm submitLabel={t.webhooks.createEndpoint} onSubmit={create} />
          <button type="button" onClick={() => setCreating(false)}>
            {t.common.cancel}
          </button>
        </section>
      )}
      <ListFilters statuses={['active', 'paused']} state={list} onChange={setList} dates={false} />
      <PagedTable
        loaded={endpoints}
        caption={t.webhooks.endpoints}
        head={[t.webhooks.head.url, t.webhooks.head.events, t.webhooks.head.status, t.webhooks.head.created]}
        empty={t.webhooks.empty}
        onPage={(page) => setList({ ...list, page })}
        row={(endpoint) => (
          <tr key={endpoint.id}>
            <td>
              <Link href={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
            </td>
            <td>{endpoint.events.join(', ')}</td>
            <td>
              <Badge value={endpoint.status} />
            </td>
            <td>{formatTime(endpoint.created_at)}</td>
          </tr>
        )}
      />
    </Page>
  );
}

export function AttemptLog(props: { delivery: Delivery }) {
  if (props.delivery.attempts.length === 0) return <span class="muted">{t.webhooks.notAttempted}</span>;
  return (
    <ol class="attempts">
      {props.delivery.attempts.map((attempt) => (
        <li key={attempt.attempt}>
          #{attempt.attempt} {formatTime(attempt.attempted_at)} ·{' '}
          {attempt.response_status === null ? t.webhooks.noResponse : `HTTP ${attempt.response_status}`} ·{' '}
          {formatCount(attempt.latency_ms)} ms{attempt.error ? ` · ${attempt.error}` : ''}
        </li>
      ))}
    </ol>
  );
}

export function RetryButton(props: { delivery: Delivery; onDone: () => void }) {
  const action = useAction();
  return (
    <>
      <button
        type="button"
        disabled={action.busy}
        onClick={() =>
          action.run(async () => {
            await call('POST', `/v1/postbacks/deliveries/${props.delivery.id}/retry`);
            props.onDone();
          })
        }
        aria-label={t.webhooks.retryLabel(props.delivery.event_type, props.delivery.id)}
      >
        {t.webhooks.retry}
      </button>
      {action.error && <Notice kind="error">{action.error.message}</Notice>}
    </>
  );
}

function Deliveries(props: { endpointId: string; user: SessionUser; round: number }) {
  const [list, setList] = useState<ListState>(EMPTY_LIST);
  const deliveries = useLoad(
    () =>
      get<Delivery[]>(
        `/v1/postbacks/endpoints/${props.endpointId}/deliveries${query({ page: list.page, status: list.status, search: list.search })}`,
      ),
    [list, props.round],
  );
  return (
    <section aria-labelledby="deliveries">
      <div class="page-head">
        <h2 id="deliveries">{t.webhooks.deliveries}</h2>
        <button type="button" onClick={deliveries.reload}>
          {t.webhooks.refresh}
        </button>
      </div>
      <ListFilters
        statuses={['pending', 'succeeded', 'failed']}
        state={list}
        onChange={setList}
        dates={false}
      />
      <Show loaded={deliveries}>
        {(answer) =>
          answer.data.length === 0 ? (
            <p>{t.webhooks.noDeliveries}</p>
          ) : (
            <>
              <Table
                caption={t.webhooks.deliveries}
                head={[
                  t.webhooks.deliveryHead.event,
                  t.webhooks.deliveryHead.status,
                  t.webhooks.deliveryHead.attempts,
                  t.webhooks.deliveryHead.created,
                  '',
                ]}
              >
                {answer.data.map((delivery) => (
                  <tr key={delivery.id} data-delivery={delivery.id}>
                    <td>
                      {delivery.event_type}
                      <br />
                      <small class="muted">{delivery.event_id}</small>
                    </td>
                    <td>
                      <Badge value={delivery.status} />
                      {delivery.next_attempt_at && (
                        <small class="muted">{t.webhooks.nextAt(formatTime(delivery.next_attempt_at))}</small>
                      )}
                    </td>
                    <td>
                      <AttemptLog delivery={delivery} />
                    </td>
                    <td>{formatTime(delivery.created_at)}</td>
                    <td>
                      {props.user.role !== 'viewer' && (
                        <RetryButton delivery={delivery} onDone={deliveries.reload} />
                      )}
                    </td>
                  </tr>
                ))}
              </Table>
              <Pager pagination={answer.pagination} onPage={(page) => setList({ ...list, page })} />
            </>
          )
        }
      </Show>
    </section>
  );
}

export function EndpointPage(props: { id: string; user: SessionUser }) {
  const endpoint = useLoad(() => get<Endpoint>(`/v1/postbacks/endpoints/${props.id}`), [props.id]);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState<'delete' | 'regenerate' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const action = useAction();
  const path = `/v1/postbacks/endpoints/${props.id}`;
  const act = (work: () => Promise<unknown>, done: string) =>
    action.run(async () => {
      await work();
      setNotice(done);
      endpoint.reload();
      setRound((n) => n + 1);
    });
  return (
    <Show loaded={endpoint}>
      {({ data }) => (
        <Page title={data.url}>
          <p>
            <Link href="/webhooks">{t.webhooks.allEndpoints}</Link>
          </p>
          {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
          {notice && <Notice kind="success">{notice}</Notice>}
          {action.error && <Notice kind="error">{action.error.message}</Notice>}
          <Facts
            items={[
              [t.webhooks.head.status, <Badge key="s" value={data.status} />],
              [t.webhooks.head.events, data.events.join(', ')],
              [t.webhooks.head.created, formatTime(data.created_at)],
              [t.charges.id, <code key="id">{data.id}</code>],
            ]}
          />
          {canChange(props.user) && (
            <div class="actions">
              <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
                {t.webhooks.edit}
              </button>
              <button
                type="button"
                disabled={action.busy}
                onClick={() =>
                  act(
                    () => call('PATCH', path, { status: data.status === 'active' ? 'paused' : 'active' }),
                    data.status === 'active' ? t.webhooks.paused : t.webhooks.resumed,
                  )
                }
              >
                {data.status === 'active' ? t.webhooks.pause : t.webhooks.resume}
              </button>
              <button
                type="button"
                disabled={action.busy || data.status !== 'active'}
                onClick={() =>
                  act(() => call('POST', `/webhooks/endpoints/${props.id}/test`), t.webhooks.testQueued)
                }
              >
                {t.webhooks.sendTest}
              </button>
              <button type="button" onClick={() => setConfirming('regenerate')}>
                {t.webhooks.regenerate}
              </button>
              <button type="button" class="danger" onClick={() => setConfirming('delete')}>
                {t.webhooks.delete}
              </button>
            </div>
          )}
          {editing && (
            <section class="card" aria-labelledby="edit-endpoint">
              <h2 id="edit-endpoint">{t.webhooks.editEndpoint}</h2>
              <EndpointForm
                initial={data}
                submitLabel={t.webhooks.save}
                onSubmit={async (body) => {
                  await call('PATCH', path, body);
                  setEditing(false);
                  setNotice(t.webhooks.updated);
                  endpoint.reload();
                }}
              />
            </section>
          )}
          <Confirm
            open={confirming === 'regenerate'}
            title={t.webhooks.regenerateTitle}
            confirmLabel={t.webhooks.regenerateConfirm}
            onCancel={() => setConfirming(null)}
            onConfirm={() => {
              setConfirming(null);
              act(async () => {
                const answer = await call<Endpoint>('POST', `${path}/secret/regenerate`);
                setSecret(answer.data.secret ?? null);
              }, t.webhooks.regenerated);
            }}
          >
            <p>{t.webhooks.regenerateWarning}</p>
          </Confirm>
          <Confirm
            open={confirming === 'delete'}
            title={t.webhooks.deleteTitle}
            confirmLabel={t.webhooks.deleteConfirm}
            danger
            onCancel={() => setConfirming(null)}
            onConfirm={() => {
              setConfirming(null);
              action.run(async () => {
                await call('DELETE', path);
                navigate('/webhooks');
              });
            }}
          >
            <p>{t.webhooks.deleteWarning}</p>
          </Confirm>
          <Deliveries endpointId={props.id} user={props.user} round={round} />
        </Page>
      )}
    </Show>
  );
}
