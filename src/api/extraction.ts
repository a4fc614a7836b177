/** Re-exports of the extraction modules, one per noun: extract-templates.ts and extracts.ts. */
export * from './extract-templates.js';
export * from './extracts.js';
