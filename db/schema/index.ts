export { roleEnum } from './columns';
export * from './identity';
export * from './networks';
export * from './events';
export * from './platform';
export * from './ads';
export * from './webhooks';
export * from './mail';
export * from './voice';
