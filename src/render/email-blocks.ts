/**
 * Editor blocks laid out as a simple HTML body: each text block a paragraph (its alignment kept), each button a
 * link styled in the brand color. Block contents go in unescaped, as the service's block template puts them
 * (`{{{content}}}`, `href="{{{url}}}"`). The service's own layout (logo, footer) wraps this when it sends.
 */

export interface LaidOutBlock {
  type: 'text' | 'button';
  content: string;
  url: string;
  align?: string;
}

export function layoutBlocks(blocks: LaidOutBlock[], color = '#ff6f61'): string {
  return blocks
    .map((block) => {
      if (block.type === 'button') {
        return `<div style="margin-bottom: 10px; text-align: center"><a href="${block.url}" target="_blank" style="display: inline-block; padding: 4px 15px; border-radius: 4px; color: white; background: ${color}; text-decoration: none">${block.content}</a></div>`;
      }
      return `<div style="margin-bottom: 10px; text-align: ${block.align || 'left'}"><p>${block.content}</p></div>`;
    })
    .join('\n');
}
