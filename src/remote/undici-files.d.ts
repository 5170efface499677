// Types of the undici files remote/undici.ts imports (undici declares its index only): each file's module.exports.
declare module 'undici/lib/api/index.js' {
  const api: Record<string, unknown>;
  export = api;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  const Dispatcher: { prototype: object };
  export = Dispatcher;
}
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  const EnvHttpProxyAgent: typeof import('undici').EnvHttpProxyAgent;
  export = EnvHttpProxyAgent;
}
declare module 'undici/lib/dispatcher/pool.js' {
  const Pool: typeof import('undici').Pool;
  export = Pool;
}
