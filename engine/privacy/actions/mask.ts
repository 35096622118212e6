/** mask: hide characters behind a mask character, keeping a few visible (a card's last four) and the separators. */

export interface MaskConfig {
  /** Mask character (default `*`). */
  char?: string;
  /** Letters or digits left visible (default 4). */
  visible?: number;
  /** Where the visible ones are (default `end`). */
  from?: 'start' | 'end';
  /** Keep spaces, dashes, dots and `@` as they are so the value keeps its shape (default true). */
  keepSeparators?: boolean;
}

const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c > 127;

/** The value with all but `visible` of its letters and digits replaced by the mask character. */
export function maskValue(value: string, config: MaskConfig = {}): string {
  const char = config.char ?? '*';
  const visible = Math.max(0, config.visible ?? 4);
  const keepSeparators = config.keepSeparators ?? true;
  let total = 0;
  for (let i = 0; i < value.length; i++) if (!keepSeparators || isAlnum(value.charCodeAt(i))) total++;
  // Never leave the whole value readable: at most half of it stays visible.
  const shown = Math.min(visible, Math.floor(total / 2));
  let out = '';
  let seen = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (keepSeparators && !isAlnum(c)) {
      out += value[i];
      continue;
    }
    const keep = config.from === 'start' ? seen < shown : seen >= total - shown;
    out += keep ? value[i] : char;
    seen++;
  }
  return out;
}
