import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { afterEach, describe, expect, it } from 'vitest';
import { config, loadConfig, setConfig } from '@/server/config';
import { AppError } from '@/server/errors';
import { assertDeliverableUrl, isForbiddenAddress, resolveDeliverableUrl, type UrlPolicy } from './ssrf';

const strict = { allowPrivate: false, requireHttps: false };
const live = { allowPrivate: false, requireHttps: true };
const permissive = { allowPrivate: true, requireHttps: false };

async function refusal(url: string, opts: UrlPolicy = strict): Promise<AppError> {
  const error = await assertDeliverableUrl(url, opts).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `${url} should be refused`).toBeInstanceOf(AppError);
  const app = error as AppError;
  expect(app.kind).toBe('bad-request');
  expect(app.extra.errors?.[0]?.path).toBe('url');
  return app;
}

describe('isForbiddenAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback /8'],
    ['::1', 'IPv6 loopback'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8 end'],
    ['172.16.0.1', 'private 172.16/12 start'],
    ['172.31.255.255', 'private 172.16/12 end'],
    ['192.168.1.1', 'private 192.168/16'],
    ['fc00::1', 'unique local fc00::/7'],
    ['fd12:3456::1', 'unique local fd'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'IPv6 link-local'],
    ['febf::1', 'IPv6 link-local end of /10'],
    ['100.64.0.1', 'CGNAT start'],
    ['100.127.255.255', 'CGNAT end'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast end'],
    ['ff02::1', 'IPv6 multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'IPv6 unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'AWS IPv6 metadata'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata, hex form'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['::ffff:0:7f00:1', 'IPv4-translated loopback (RFC 6145)'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated loopback, dotted form'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['64:ff9b:1::7f00:1', 'local-use NAT64 of loopback (RFC 8215)'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['::127.0.0.1', 'IPv4-compatible loopback, dotted form'],
    ['::ffff:93.184.216.34', 'IPv4-mapped public address'],
    ['::ffff:0:93.184.216.34', 'IPv4-translated public address'],
    ['::93.184.216.34', 'IPv4-compatible public address'],
    ['64:ff9b::93.184.216.34', 'NAT64 of a public address'],
    ['64:ff9b:1::5db8:d822', 'local-use NAT64 of a public address'],
    ['2002:5db8:d822::1', '6to4 of a public address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['192.0.2.10', 'documentation TEST-NET-1'],
    ['198.51.100.7', 'documentation TEST-NET-2'],
    ['203.0.113.10', 'documentation TEST-NET-3'],
    ['2001:db8::1', 'IPv6 documentation 2001:db8::/32'],
    ['3fff::1', 'IPv6 documentation 3fff::/20 (RFC 9637)'],
    ['3fff:fff:ffff::1', 'IPv6 documentation 3fff::/20 end'],
    ['198.18.0.1', 'benchmarking'],
    ['2001:2::1', 'IPv6 benchmarking'],
    ['2001:20::1', 'ORCHIDv2'],
    ['2001:5::1', 'IETF protocol assignments 2001::/23'],
    ['240.0.0.1', 'reserved 240/4'],
    ['100::1', 'IPv6 discard prefix'],
    ['fec0::1', 'deprecated site-local'],
    ['fbff::1', 'unassigned, outside 2000::/3'],
    ['fe00::1', 'unassigned, outside 2000::/3'],
    ['4000::1', 'unassigned, outside 2000::/3'],
    ['fe80::1%eth0', 'link-local with a zone id'],
    ['[::1]', 'bracketed'],
    ['[2002:7f00:1::]', 'bracketed 6to4 of loopback'],
    ['127.0.0.1%eth0', 'an IPv4 address with a zone id is not an address'],
    ['not-an-ip', 'not an address'],
  ])('refuses %s (%s)', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    ['93.184.216.34'],
    ['8.8.8.8'],
    ['172.15.255.255'],
    ['172.32.0.0'],
    ['100.63.255.255'],
    ['100.128.0.0'],
    ['169.253.255.255'],
    ['11.0.0.1'],
    ['223.255.255.255'],
    ['2606:2800:220:1:248:1893:25c8:1946'],
    ['2001:4860:4860::8888'],
    ['2001:200:dff:fff1:216:3eff:feb1:44d7'], // just past 2001::/23
    ['3fff:1000::1'], // just past 3fff::/20
    ['2600::1'],
    ['[2001:4860:4860::8888]'],
  ])('allows public %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe('IPv4 addresses and their IPv6 embeddings', () => {
  /** The IPv6 forms that carry an IPv4 address: mapped, translated, compatible, NAT64 (well-known and local-use), 6to4. */
  function embeddings(a: string): string[] {
    const [high, low] = ipaddr.IPv4.parse(a)
      .toIPv4MappedAddress()
      .parts.slice(6)
      .map((group) => group.toString(16));
    return [`::ffff:${a}`, `::ffff:0:${a}`, `::${a}`, `64:ff9b::${a}`, `64:ff9b:1::${a}`, `2002:${high}:${low}::`, `2002:${high}:${low}::1`];
  }

  it('refuses every IPv6 embedding of any IPv4 address, and the IPv4 address exactly when ipaddr.js does not call it unicast', () => {
    fc.assert(
      fc.property(fc.ipV4(), (a) => {
        for (const form of embeddings(a)) expect(isForbiddenAddress(form), form).toBe(true);
        expect(isForbiddenAddress(a), a).toBe(ipaddr.parse(a).range() !== 'unicast');
      }),
      { numRuns: 1000 },
    );
  });
});

describe('assertDeliverableUrl', () => {
  it.each([
    'http://127.0.0.1:9/x',
    'http://10.0.0.1/',
    'http://169.254.169.254/latest',
    'http://172.20.1.1/',
    'http://192.168.0.10/',
    'http://100.64.1.1/',
    'http://224.0.0.1/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[fd00:ec2::254]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:0:7f00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[64:ff9b:1::7f00:1]/',
    'https://203.0.113.10/hooks',
    'http://[ff02::1]/',
    'http://[::]/',
    'http://0x7f.0.0.1/', // WHATWG URL parsing normalises this to 127.0.0.1
    'http://2130706433/', // …and this
  ])('refuses %s without allowPrivate', async (url) => {
    await refusal(url);
  });

  it('resolves host names and refuses localhost (loopback)', async () => {
    const error = await refusal('http://localhost/');
    expect(error.detail).toMatch(/public address/);
  });

  it('names WEBHOOK_ALLOW_PRIVATE=1 in the refusal only where that setting is allowed (not in live mode)', async () => {
    const local = await refusal('http://127.0.0.1:9/x', { ...strict, hintAllowPrivate: true });
    expect(local.detail).toContain('WEBHOOK_ALLOW_PRIVATE=1');
    expect(local.extra.errors?.[0]?.message).toContain('WEBHOOK_ALLOW_PRIVATE=1');
    const inLive = await refusal('https://127.0.0.1:9/x', { ...live, hintAllowPrivate: false });
    expect(inLive.detail).not.toContain('WEBHOOK_ALLOW_PRIVATE');
  });

  it('refuses schemes other than http and https, malformed URLs and credentials', async () => {
    await refusal('ftp://93.184.216.34/');
    await refusal('file:///etc/passwd');
    await refusal('not a url');
    await refusal('https://user:pass@93.184.216.34/');
  });

  it('requires https when requireHttps', async () => {
    const error = await refusal('http://93.184.216.34/hooks', live);
    expect(error.detail).toMatch(/https/);
    await expect(assertDeliverableUrl('https://93.184.216.34/hooks', live)).resolves.toMatchObject({
      addresses: [{ address: '93.184.216.34', family: 4 }],
    });
  });

  it('allows public literal addresses and returns them', async () => {
    await expect(assertDeliverableUrl('http://93.184.216.34/hooks', strict)).resolves.toMatchObject({
      addresses: [{ address: '93.184.216.34', family: 4 }],
    });
    const v4 = await resolveDeliverableUrl('https://93.184.216.34/hooks', strict);
    expect(v4.addresses).toEqual([{ address: '93.184.216.34', family: 4 }]);
    const v6 = await resolveDeliverableUrl('https://[2001:4860:4860::8888]/hooks', strict);
    expect(v6.addresses).toEqual([{ address: '2001:4860:4860::8888', family: 6 }]);
    expect(v6.url.pathname).toBe('/hooks');
  });

  it('allows private targets with allowPrivate, still returning the addresses', async () => {
    await expect(assertDeliverableUrl('http://127.0.0.1:9/x', permissive)).resolves.toMatchObject({
      addresses: [{ address: '127.0.0.1', family: 4 }],
    });
    await expect(assertDeliverableUrl('http://169.254.169.254/latest', permissive)).resolves.toMatchObject({
      addresses: [{ address: '169.254.169.254', family: 4 }],
    });
    const local = await resolveDeliverableUrl('http://localhost:8080/', permissive);
    expect(local.addresses.length).toBeGreaterThan(0);
    expect(local.addresses.every((a) => isForbiddenAddress(a.address))).toBe(true);
    // allowPrivate does not relax the https requirement.
    await refusal('http://127.0.0.1/', { allowPrivate: true, requireHttps: true });
  });

  it('vets what an injected resolver answers: every address, one private answer is enough to refuse', async () => {
    const answers = (list: string[]) => async () => list.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));
    const ok = await resolveDeliverableUrl('https://hooks.example.test/x', strict, answers(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']));
    expect(ok.addresses.map((a) => a.address)).toEqual(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    expect(ok.url.hostname).toBe('hooks.example.test');
    await expect(resolveDeliverableUrl('https://hooks.example.test/x', strict, answers(['93.184.216.34', '10.0.0.5']))).rejects.toMatchObject({
      kind: 'bad-request',
    });
    await expect(resolveDeliverableUrl('https://hooks.example.test/x', strict, answers([]))).rejects.toMatchObject({ kind: 'bad-request' });
    // An IP literal is never handed to the resolver.
    const never = async (): Promise<never> => {
      throw new Error('resolver called for a literal');
    };
    await expect(resolveDeliverableUrl('https://93.184.216.34/x', strict, never)).resolves.toMatchObject({
      addresses: [{ address: '93.184.216.34', family: 4 }],
    });
  });

  it('refuses a host that does not resolve', async () => {
    const error = await refusal('https://no-such-host.invalid/');
    expect(error.detail).toMatch(/could not be resolved/);
  });
});

describe('webhookUrlPolicy', () => {
  const saved = config();
  afterEach(() => setConfig(saved));
  const withEnv = (vars: Record<string, string>) => loadConfig({ ...process.env, WEBHOOK_ALLOW_PRIVATE: undefined, ...vars } as NodeJS.ProcessEnv);

  it('allows private targets only with WEBHOOK_ALLOW_PRIVATE=1, and refuses any other value at start', async () => {
    const { webhookUrlPolicy } = await import('./ssrf');
    setConfig(withEnv({ WEBHOOK_ALLOW_PRIVATE: '1' }));
    expect(webhookUrlPolicy().allowPrivate).toBe(true);
    setConfig(withEnv({}));
    expect(webhookUrlPolicy().allowPrivate).toBe(false);
    expect(() => withEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
  });
});
