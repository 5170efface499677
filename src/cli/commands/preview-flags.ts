/** `wfsync preview`'s flags, global ones included (preview.ts declares them). */
export interface PreviewFlags {
  format: 'human' | 'json' | 'html';
  step?: string;
  payload?: string;
  subscriber?: string;
  events?: string;
  preview?: string;
  out?: string;
  allowImages?: boolean;
  serve?: boolean;
  port?: number;
  config?: string;
}
