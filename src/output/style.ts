import type { ChalkInstance } from 'chalk';

/**
 * Terminal colours and text styles, as chalk writes them, for the named styles (no hex, rgb
 * or 256-colour styles). Every command run builds its output with these, and chalk itself
 * costs several milliseconds to load (it probes the terminal on import); the level here comes
 * from `colorLevel` (io.ts) anyway. Same escape codes, same nesting and line-break handling.
 */
const CODES: Record<string, [number, number]> = {
  reset: [0, 0],
  bold: [1, 22],
  dim: [2, 22],
  italic: [3, 23],
  underline: [4, 24],
  overline: [53, 55],
  inverse: [7, 27],
  hidden: [8, 28],
  strikethrough: [9, 29],
  black: [30, 39],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  white: [37, 39],
  blackBright: [90, 39],
  gray: [90, 39],
  grey: [90, 39],
  redBright: [91, 39],
  greenBright: [92, 39],
  yellowBright: [93, 39],
  blueBright: [94, 39],
  magentaBright: [95, 39],
  cyanBright: [96, 39],
  whiteBright: [97, 39],
  bgBlack: [40, 49],
  bgRed: [41, 49],
  bgGreen: [42, 49],
  bgYellow: [43, 49],
  bgBlue: [44, 49],
  bgMagenta: [45, 49],
  bgCyan: [46, 49],
  bgWhite: [47, 49],
  bgBlackBright: [100, 49],
  bgGray: [100, 49],
  bgGrey: [100, 49],
  bgRedBright: [101, 49],
  bgGreenBright: [102, 49],
  bgYellowBright: [103, 49],
  bgBlueBright: [104, 49],
  bgMagentaBright: [105, 49],
  bgCyanBright: [106, 49],
  bgWhiteBright: [107, 49],
};

interface Styler {
  open: string;
  close: string;
  openAll: string;
  closeAll: string;
  parent: Styler | undefined;
}

interface Builder {
  (...text: unknown[]): string;
  level: number;
  styler: Styler | undefined;
}

const proto: Record<string, unknown> = {};
for (const [name, [open, close]] of Object.entries(CODES)) {
  Object.defineProperty(proto, name, {
    get(this: Builder) {
      const parent = this.styler;
      const o = `\u001B[${open}m`;
      const c = `\u001B[${close}m`;
      const styler: Styler = {
        open: o,
        close: c,
        openAll: (parent?.openAll ?? '') + o,
        closeAll: c + (parent?.closeAll ?? ''),
        parent,
      };
      const builder = createBuilder(this.level, styler);
      Object.defineProperty(this, name, { value: builder });
      return builder;
    },
  });
}

function createBuilder(level: number, styler: Styler | undefined): Builder {
  const builder = ((...text: unknown[]) =>
    applyStyle(builder, text.length === 1 ? `${text[0]}` : text.join(' '))) as Builder;
  Object.setPrototypeOf(builder, proto);
  builder.level = level;
  builder.styler = styler;
  return builder;
}

function applyStyle(self: Builder, text: string): string {
  if (self.level <= 0 || !text) return text;
  let styler = self.styler;
  if (styler === undefined) return text;
  const { openAll, closeAll } = styler;
  if (text.includes('\u001B')) {
    // A nested style that ends with the same code as this one: this one opens again after it.
    while (styler !== undefined) {
      text = text.split(styler.close).join(styler.close + styler.open);
      styler = styler.parent;
    }
  }
  // Styles end before each line break and start again after it.
  if (text.includes('\n')) text = text.replace(/\r?\n/g, (br) => `${closeAll}${br}${openAll}`);
  return openAll + text + closeAll;
}

/** A chalk-compatible styler at a colour level (0 none, 1 basic, 2 256, 3 true colour). */
export function createStyle(level: 0 | 1 | 2 | 3): ChalkInstance {
  return createBuilder(level, undefined) as unknown as ChalkInstance;
}
