import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { dashboardUrl, startBanner } from '../../scripts/start-banner.mjs';

async function serverAnswering(status: number) {
  const server = http.createServer((_request, response) => {
    response.writeHead(status, status === 302 ? { location: '/dashboard/login' } : {});
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

describe('the npm start banner', () => {
  test('lists the API, the demo, the keys, and the dashboard with its demo user only when there is one', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigia-banner-'));
    const keysFile = path.join(dir, 'demo-merchant.json');
    const demoUserFile = path.join(dir, 'demo-user.json');
    await fs.writeFile(
      keysFile,
      JSON.stringify({ id: 'm1', secret_key: 'sk_test_abc', public_key: 'pk_test_xyz' }),
    );
    await fs.writeFile(demoUserFile, JSON.stringify({ email: 'demo@example.com', password: 'pw-123' }));
    const where = {
      apiUrl: 'http://127.0.0.1:4000',
      demoUrl: 'http://127.0.0.1:4001',
      keysFile,
      demoUserFile,
    };

    const withDashboard = startBanner({ ...where, dashboardUrl: 'http://127.0.0.1:4000/dashboard' });
    expect(withDashboard).toContain('http://127.0.0.1:4000/docs');
    expect(withDashboard).toContain('http://127.0.0.1:4001/spa');
    expect(withDashboard).toMatch(/Dashboard +http:\/\/127\.0\.0\.1:4000\/dashboard/);
    expect(withDashboard).toMatch(/Demo user +demo@example\.com +password pw-123/);
    expect(withDashboard).toMatch(/Secret key +sk_test_abc/);
    expect(withDashboard).toMatch(/Public key +pk_test_xyz/);

    const without = startBanner({ ...where, dashboardUrl: undefined, keysFile: path.join(dir, 'none.json') });
    expect(without).not.toContain('Dashboard');
    expect(without).not.toContain('demo@example.com');
    expect(without).not.toContain('sk_test_');
    await fs.rm(dir, { recursive: true, force: true });
  });

  test('finds the dashboard by asking the service: a 404 means there is none, a redirect to sign in is one', async () => {
    const none = await serverAnswering(404);
    const signIn = await serverAnswering(302);
    expect(await dashboardUrl(none.url)).toBeUndefined();
    expect(await dashboardUrl(signIn.url)).toBe(`${signIn.url}/dashboard`);
    expect(await dashboardUrl('http://127.0.0.1:1')).toBeUndefined();
    none.close();
    signIn.close();
  });
});
