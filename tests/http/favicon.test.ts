import { describe, expect, inject, it } from 'vitest';

describe('favicon', () => {
  it('/favicon.ico answers with an icon, and pages link it', async () => {
    const icon = await fetch(`${inject('baseUrl')}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    const bytes = Buffer.from(await icon.arrayBuffer());
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]); // ICO header: reserved 0, type 1 (icon)

    for (const page of ['/', '/docs', '/console']) {
      const html = await (await fetch(`${inject('baseUrl')}${page}`)).text();
      expect(html, page).toMatch(/<link rel="icon" href="\/favicon\.ico/);
    }
  });
});
