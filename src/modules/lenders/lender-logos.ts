/**
 * Lender logos and icons: the catalogue points at /static/lenders/<slug>.svg and <slug>-icon.svg;
 * we draw them from the lender's name (a monogram on a colour derived from the slug) so every
 * published link resolves. Public images: no caller to check, only lenders of this environment.
 */
import { createHash } from 'node:crypto';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { lenderScope } from './lender-visibility.js';

const LENDER_IMAGE_BASE = '/static/lenders/';

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function initials(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return (words.length > 1 ? words[0]![0]! + words[1]![0]! : (words[0] ?? '?').slice(0, 2)).toUpperCase();
}

function colourOf(slug: string): string {
  const hue = parseInt(createHash('sha256').update(slug).digest('hex').slice(0, 4), 16) % 360;
  return `hsl(${hue} 55% 38%)`;
}

/**
 * The SVG a lender's logo or icon path stands for; 404 for a path no lender of this environment uses.
 * @access public: a lender's logo is published on every page that names the lender.
 */
export async function lenderImage(ctx: ServiceContext, file: string): Promise<string> {
  const path = `${LENDER_IMAGE_BASE}${file}`;
  const lender = await ctx.db.lender.findFirst({
    where: { AND: [lenderScope(ctx), { OR: [{ logo: path }, { icon: path }] }] },
    select: { name: true, slug: true, icon: true },
  });
  if (!lender) throw AppError.notFound('Lender image');
  const fill = colourOf(lender.slug);
  const mark = escapeXml(initials(lender.name));
  if (lender.icon === path) {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48" role="img" aria-label="${escapeXml(lender.name)}"><rect width="48" height="48" rx="10" fill="${fill}"/><text x="24" y="31" text-anchor="middle" font-family="system-ui,sans-serif" font-size="20" font-weight="700" fill="#fff">${mark}</text></svg>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="48" viewBox="0 0 240 48" role="img" aria-label="${escapeXml(lender.name)}"><rect width="48" height="48" rx="10" fill="${fill}"/><text x="24" y="31" text-anchor="middle" font-family="system-ui,sans-serif" font-size="20" font-weight="700" fill="#fff">${mark}</text><text x="58" y="30" font-family="system-ui,sans-serif" font-size="16" font-weight="600" fill="#1f2937">${escapeXml(lender.name.slice(0, 24))}</text></svg>`;
}
