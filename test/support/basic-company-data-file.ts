/**
 * Basic Company Data files of any size in the published format, for the import's tests and
 * benchmark: the header line is the fixture's (the published one, leading spaces included) and
 * every record has its 55 quoted fields. Company `i` is deterministic; `variant` changes the
 * registered office of every 1000th company, so a second file differs from the first in a known way.
 */
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const SAMPLE_FILE = fileURLToPath(new URL('../../src/modules/companies/companies-house/fixtures/basic-company-data-sample.csv', import.meta.url));

const HEADER_LINE = readFileSync(SAMPLE_FILE, 'utf8').split('\r\n')[0]!;

const WORDS = ['ALDER', 'BRAMBLE', 'CINDER', 'DUNMORE', 'EASTGATE', 'FARTHING', 'GLENROY', 'HOLLOWAY', 'INGLEBY', 'JUNIPER', 'KESWICK'];
const TRADES = [
  ['SOFTWARE', '62012 - Business and domestic software development'],
  ['BUILDERS', '41202 - Construction of domestic buildings'],
  ['BAKERY', '10710 - Manufacture of bread; manufacture of fresh pastry goods and cakes'],
  ['LOGISTICS', '49410 - Freight transport by road'],
  ['DENTAL CARE', '86230 - Dental practice activities'],
] as const;

/** The company number of generated company `i`: 8 digits from 20000000, zero padding kept by construction. */
export function generatedNumber(i: number): string {
  return String(20_000_000 + i).padStart(8, '0');
}

function generatedName(i: number): string {
  return `${WORDS[i % WORDS.length]} ${WORDS[Math.floor(i / WORDS.length) % WORDS.length]} ${TRADES[i % TRADES.length]![0]} ${i} LIMITED`;
}

function record(i: number, variant: number): string {
  const fields = new Array<string>(55).fill('');
  fields[0] = generatedName(i);
  fields[1] = generatedNumber(i);
  fields[4] = `${(i % 200) + 1} ${i % 1000 === 0 && variant > 0 ? `NEW ROAD ${variant}` : 'STATION ROAD'}`;
  fields[6] = 'MANCHESTER';
  fields[8] = 'ENGLAND';
  fields[9] = `M${(i % 30) + 1} 2AB`;
  fields[10] = 'Private Limited Company';
  fields[11] = 'Active';
  fields[12] = 'United Kingdom';
  fields[14] = `${String((i % 28) + 1).padStart(2, '0')}/0${(i % 9) + 1}/20${String(i % 24).padStart(2, '0')}`;
  fields[26] = TRADES[i % TRADES.length]![1];
  fields[32] = `http://business.data.gov.uk/id/company/${generatedNumber(i)}`;
  return fields.map((f) => `"${f}"`).join(',');
}

/** Writes `count` generated companies (and `extra` more after them, for a file with new companies). */
export async function writeBasicCompanyDataFile(file: string, count: number, options: { variant?: number } = {}): Promise<void> {
  const out = createWriteStream(file);
  out.write(`${HEADER_LINE}\r\n`);
  for (let i = 0; i < count; i++) {
    if (!out.write(`${record(i, options.variant ?? 0)}\r\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/**
 * A zip of the given entries (deflated), as Companies House publishes the product: local headers,
 * central directory, end record, per the PKWARE APPNOTE. Small files only (built in memory).
 */
export async function writeZip(file: string, entries: Array<{ name: string; data: Buffer }>): Promise<void> {
  const { deflateRawSync, crc32 } = await import('node:zlib');
  const { writeFile } = await import('node:fs/promises');
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const body = deflateRawSync(entry.data);
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  await writeFile(file, Buffer.concat([...locals, directory, end]));
}
