export { freePort } from '@/scripts/free-port';
