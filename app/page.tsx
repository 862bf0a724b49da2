export default function Home() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 720, margin: '48px auto', padding: '0 16px', lineHeight: 1.5 }}>
      <h1>Ad Network Service</h1>
      <p>The API for podcast ad networks: networks, campaigns, offers, host-voiced creatives and signed webhooks.</p>
      <ul>
        <li>
          <a href="/docs">API reference</a>
        </li>
        <li>
          <a href="/v1/openapi.json">OpenAPI document</a> (<code>/v1/openapi.json</code>)
        </li>
      </ul>
    </main>
  );
}
