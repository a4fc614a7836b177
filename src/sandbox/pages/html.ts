import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The sandbox's pages: plain server-rendered HTML, one small stylesheet, no framework. Every
 * value shown is escaped here or by the caller through `esc`.
 */

export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Colours chosen for a contrast of at least 4.5:1 on their backgrounds (WCAG AA). */
const STYLE = `
:root { color-scheme: light; }
body { font: 16px/1.5 system-ui, sans-serif; color: #1b1b1b; background: #fff; margin: 0; }
header { background: #1d3557; color: #fff; padding: .75rem 1.25rem; }
header p { margin: 0; font-weight: 600; }
main { max-width: 46rem; padding: 1rem 1.25rem 2rem; }
.sandbox { background: #fff4d6; border: 1px solid #8a6100; color: #4a3400; padding: .5rem .75rem; border-radius: 4px; }
.error { background: #fde8e8; border: 1px solid #a4161a; color: #7a0d10; padding: .5rem .75rem; border-radius: 4px; }
.done { background: #e6f4ea; border: 1px solid #1e6b35; color: #124221; padding: .5rem .75rem; border-radius: 4px; }
fieldset { border: 1px solid #6b6b6b; border-radius: 4px; margin: 1rem 0; }
label { display: block; margin: .25rem 0; }
input[type=text], input[type=email], input[type=number], input[type=url] { font: inherit; padding: .25rem .4rem; }
button { font: inherit; background: #1d3557; color: #fff; border: 0; border-radius: 4px; padding: .45rem 1rem; cursor: pointer; }
button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid #e76f00; outline-offset: 2px; }
a { color: #0b4f9c; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { border: 1px solid #c4c4c4; padding: .2rem .4rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
.table-scroll { overflow-x: auto; }
th { background: #eef1f5; }
code { font-size: 13px; word-break: break-all; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

export interface PageOptions {
  /** the page's `<title>` and first heading */
  title: string;
  /** shown in the banner above the heading */
  brand: string;
  body: string;
  /** inline script placed at the end of the body */
  script?: string;
  /** a wider main column (the inspector's tables) */
  wide?: boolean;
}

export function page(o: PageOptions): string {
  const width = o.wide ? ' style="max-width: none"' : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(o.title)} - ${esc(o.brand)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><p>${esc(o.brand)}</p></header>
<main${width}>
<h1>${esc(o.title)}</h1>
${o.body}
</main>${o.script ? `\n<script>${o.script}</script>` : ''}
</body>
</html>
`;
}

/** The note every step of the connect flow carries: nothing here is a real provider. */
export function sandboxNote(text: string): string {
  return `<p class="sandbox" role="note"><strong>Sandbox.</strong> ${text}</p>`;
}

export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/** An error page: why the page cannot go on, and nothing of the sandbox's internals. */
export function sendErrorPage(reply: FastifyReply, status: number, brand: string, title: string, why: string) {
  return sendPage(reply, status, page({ title, brand, body: `<p class="error" role="alert">${esc(why)}</p>` }));
}

/** Whether the request is a browser's navigation (it prefers HTML to JSON). */
export function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /\btext\/html\b/.test(accept);
}

/** A form post's fields: repeated names (checkboxes) keep every value. */
export type FormFields = Record<string, string[]>;

export function formFields(body: unknown): FormFields {
  return body && typeof body === 'object' ? (body as FormFields) : {};
}

export function field(fields: FormFields, name: string): string | undefined {
  return fields[name]?.[0];
}

export function parseForm(text: string): FormFields {
  const out: FormFields = {};
  for (const [k, v] of new URLSearchParams(text)) (out[k] ??= []).push(v);
  return out;
}
