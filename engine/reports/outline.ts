import type { ReportDocument, Section } from './document';

/** A section in reading order, with what every format's table of contents and anchors need. */
export interface OutlineEntry {
  section: Section;
  /** 1 for top-level sections, 2 for their subsections, and so on. */
  level: number;
  /** "2", "2.1": shown before the title in headings and in the table of contents. */
  number: string;
  /** Unique in the document, safe as an HTML id, a PDF destination name and a DOCX bookmark: [a-z0-9-] only, at most 40 characters with a suffix. */
  anchor: string;
}

/** How deep the tables of contents go: sections and their subsections. */
export const TOC_DEPTH = 2;

/** Flattens the section tree in reading order, numbering it and giving every section a unique, safe anchor. */
export function outline(doc: ReportDocument): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  const used = new Set<string>();
  const walk = (sections: Section[], level: number, prefix: string): void => {
    sections.forEach((section, i) => {
      const number = prefix ? `${prefix}.${i + 1}` : String(i + 1);
      const base = `sec-${slug(section.id, 32) || number.replace(/\./g, '-')}`;
      let anchor = base;
      for (let n = 2; used.has(anchor); n++) anchor = `${base}-${n}`;
      used.add(anchor);
      out.push({ section, level, number, anchor });
      walk(section.subsections ?? [], level + 1, number);
    });
  };
  walk(doc.sections, 1, '');
  return out;
}

/** Lower-case ASCII words joined by '-': accents are dropped, anything else becomes a separator. */
export function slug(text: string, maxLength = 60): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/g, '');
}
