/** The channels `wfsync new --channel` offers: the step types that send a message. */
export const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];
export const DEFAULT_CHANNEL: Channel = 'in_app';
